package org.weft.mm.module.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.spi.SendStatus;

/**
 * A quick sanity figure, not a benchmark and not a test: a 2-rank ping-pong through two shm modules in this JVM,
 * one thread per rank spinning on its own poll. Large messages go as the device sends them: fragments of
 * {@code maxRsrLength()} sent while polling on back-pressure, each copied out into the receiver's buffer (the
 * matching engine's copy). {@code java ... ShmPingPongFigures [ring_size [fragment]]}
 */
public final class ShmPingPongFigures {
    /** Copies each body into the receive buffer at the offset in its 8-byte header, and counts bytes. */
    private static final class CopyingSink implements RsrSink {
        MemorySegment target;
        volatile long received;

        @Override
        public void deliver(int sourceRank, int endpointId, int handlerId, ByteBuffer body) {
            long offset = body.getLong(body.position());
            int length = body.remaining() - 8;
            MemorySegment.copy(MemorySegment.ofBuffer(body), 8, target, offset, length);
            received += length;
        }
    }

    public static void main(String[] args) throws Exception {
        String ring = args.length > 0 ? args[0] : "1m";
        Path dir = Files.createTempDirectory(Path.of("/dev/shm"), "weft-pingpong");
        Map<String, String> params = Map.of("job_dir", dir.toString(), "shm_ring_size", ring);
        ShmModule[] modules = new ShmModule[2];
        CopyingSink[] sinks = new CopyingSink[2];
        for (int r = 0; r < 2; r++) {
            sinks[r] = new CopyingSink();
            modules[r] = new ShmModule();
            modules[r].init(new TestModuleContext(r, 2, "pp", "s", "localhost", new Parameters(params, Map.of()),
                    sinks[r]));
        }
        long fragment = args.length > 1 ? Parameters.of(Map.of("f", args[1])).get(
                org.weft.adi.param.Parameter.bytes("f", 0, "")) : modules[0].maxRsrLength() - 8;
        CommObject[] links = {modules[0].connect(1, modules[1].localDescriptor()),
                modules[1].connect(0, modules[0].localDescriptor())};
        try (Arena arena = Arena.ofShared()) {
            for (boolean direct : new boolean[] {false, true}) {
                for (int size : new int[] {0, 8, 1024, 64 * 1024, 1 << 20, 4 << 20}) {
                    MemorySegment[] bufs = new MemorySegment[2];
                    for (int r = 0; r < 2; r++) {
                        bufs[r] = direct ? arena.allocate(Math.max(size, 1), 64)
                                : MemorySegment.ofArray(new byte[Math.max(size, 1)]).asSlice(0, size);
                        sinks[r].target = bufs[r];
                    }
                    int iterations = size <= 1024 ? 200_000 : size <= 65536 ? 20_000 : 1_000;
                    double[] best = {Double.MAX_VALUE};
                    for (int run = 0; run < 5; run++) {
                        sinks[0].received = 0; // both ranks are idle between runs
                        sinks[1].received = 0;
                        Thread echo = Thread.ofPlatform().start(() -> rank(1, iterations, size, fragment, modules,
                                sinks, links, bufs));
                        long start = System.nanoTime();
                        rank(0, iterations, size, fragment, modules, sinks, links, bufs);
                        long ns = System.nanoTime() - start;
                        echo.join();
                        best[0] = Math.min(best[0], ns / (2.0 * iterations));
                    }
                    double oneWayNs = best[0];
                    System.out.printf("ring %s fragment %d %s %8d B  one-way %9.3f us  %7.2f GB/s%n", ring,
                            fragment, direct ? "direct" : "heap  ", size, oneWayNs / 1000, size / oneWayNs);
                }
            }
        } finally {
            modules[0].shutdown();
            modules[1].shutdown();
            Files.deleteIfExists(dir);
        }
    }

    /** Rank 0 sends first; each rank waits for a whole message before answering. */
    private static void rank(int me, int iterations, int size, long fragment, ShmModule[] modules,
                             CopyingSink[] sinks, CommObject[] links, MemorySegment[] bufs) {
        ByteBuffer header = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        CopyingSink sink = sinks[me];
        long expected = 0;
        for (int i = 0; i < iterations; i++) {
            if (me == 0) {
                send(modules[me], links[me], header, bufs[me], size, fragment);
            }
            expected += Math.max(size, 0);
            long messagesBefore = expected;
            int arrivals = 0;
            while (sink.received < messagesBefore || (size == 0 && arrivals == 0)) {
                arrivals += modules[me].poll();
            }
            if (me == 1) {
                send(modules[me], links[me], header, bufs[me], size, fragment);
            }
        }
    }

    private static void send(ShmModule module, CommObject link, ByteBuffer header, MemorySegment buf, int size,
                             long fragment) {
        long offset = 0;
        do {
            long length = Math.min(fragment, size - offset);
            header.clear().putLong(0, offset);
            MemorySegment piece = buf.asSlice(offset, length);
            while (link.send(1, 1, header, piece) == SendStatus.BACK_PRESSURED) {
                module.poll();
                Thread.onSpinWait();
            }
            offset += length;
        } while (offset < size);
    }

    private ShmPingPongFigures() {
    }

}
