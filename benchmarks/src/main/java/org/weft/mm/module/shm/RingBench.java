package org.weft.mm.module.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.weft.bench.jmh.NanosecondBenchmark;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.spi.SendStatus;

/**
 * The shm ring's software in one thread, with no other core involved: one record offered (a 40-byte envelope, as
 * a message's, and {@code payload} bytes) and polled back. In the shm package because the ring is package-private;
 * run by {@code org.weft.bench.jmh.Internals} with the others.
 */
public class RingBench extends NanosecondBenchmark {
    private static final long CAPACITY = 1L << 20;

    @Param({"0", "1024"})
    public int payload;

    private Arena arena;
    private RingWriter writer;
    private RingReader reader;
    private ByteBuffer envelope;
    private MemorySegment data;
    private Blackhole blackhole;
    private final RsrSink sink = (source, endpoint, handler, body) -> blackhole.consume(body.remaining());
    private final Consumer<String> log = System.err::println;

    @Setup
    public void setUp(Blackhole blackhole) {
        this.blackhole = blackhole;
        arena = Arena.ofShared(); // as a mapped inbox: shared between threads
        MemorySegment ring = arena.allocate(RingLayout.ringLength(CAPACITY), 4096);
        writer = new RingWriter(ring, CAPACITY);
        reader = new RingReader(0, ring, CAPACITY);
        envelope = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        data = arena.allocate(Math.max(payload, 1)).asSlice(0, payload);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public int offerThenPoll() {
        if (writer.offer(0, 0, envelope, data) != SendStatus.SENT) {
            throw new IllegalStateException("a ring drained after every record cannot be full");
        }
        return reader.poll(1, sink, log);
    }
}
