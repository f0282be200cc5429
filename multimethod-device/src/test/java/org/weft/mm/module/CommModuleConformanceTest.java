package org.weft.mm.module;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;

/**
 * The module test kit: what every communication module must do, checked on real instances (2 or 3 ranks in one
 * JVM, no mocks). A module's test extends this class and supplies {@link #newModule}; it may add parameters and
 * tests of its own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class CommModuleConformanceTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int MIB = 1 << 20;

    private final List<ModuleTestJob> jobs = new ArrayList<>();

    /** A fresh, uninitialised module for {@code rank}. */
    protected abstract CommModule newModule(int rank);

    /** Explicit parameters every rank of the test jobs gets (the environment is ignored). */
    protected Map<String, String> parameters() {
        return Map.of();
    }

    /** A started job of {@code size} ranks, shut down after the test. */
    protected ModuleTestJob startJob(int size) throws Exception {
        ModuleTestJob job = ModuleTestJob.start(size, this::newModule, parameters());
        jobs.add(job);
        return job;
    }

    @AfterEach
    void shutDownJobs() {
        jobs.forEach(ModuleTestJob::close);
    }

    @Test
    void oneRsrArrivesWithSourceEndpointHandlerAndBody() throws Exception {
        ModuleTestJob job = startJob(2);
        byte[] payload = "payload bytes".getBytes();
        job.send(job.link(1, 0), 7, 3, ByteBuffer.wrap(new byte[] {1, 2, 3}), MemorySegment.ofArray(payload));

        job.awaitDelivered(0, 1, WAIT);
        RecordingSink.Rsr rsr = job.sink(0).received().getFirst();
        assertEquals(1, rsr.source());
        assertEquals(7, rsr.endpoint());
        assertEquals(3, rsr.handler());
        assertArrayEquals(concat(new byte[] {1, 2, 3}, payload), rsr.body());
        assertEquals(ByteOrder.LITTLE_ENDIAN, rsr.order(), "bodies are handed over little-endian");
        assertEquals(0, job.sink(1).count(), "nothing goes back to the sender");
    }

    @Test
    void headerIsTakenFromItsPositionToItsLimit() throws Exception {
        ModuleTestJob job = startJob(2);
        ByteBuffer header = ByteBuffer.wrap(new byte[] {9, 9, 1, 2, 3, 4, 9});
        header.position(2).limit(6);
        job.send(job.link(0, 1), 1, 1, header, MemorySegment.ofArray(new byte[] {5}));

        job.awaitDelivered(1, 1, WAIT);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5}, job.sink(1).received().getFirst().body());
    }

    @Test
    void emptyHeaderAndEmptyPayloadMakeAnEmptyBody() throws Exception {
        ModuleTestJob job = startJob(2);
        job.send(job.link(0, 1), 0, 0, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[0]));

        job.awaitDelivered(1, 1, WAIT);
        assertEquals(0, job.sink(1).received().getFirst().body().length);
    }

    @Test
    void tenThousandRsrsOfMixedSizesArriveCompleteAndInOrder() throws Exception {
        ModuleTestJob job = startJob(2);
        int count = 10_000;
        int[] sizes = mixedSizes(count, new Random(42));
        CommObject link = job.link(1, 0);
        byte[] heap = new byte[MIB];
        ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeBuffer = arena.allocate(MIB);
            for (int seq = 0; seq < count; seq++) {
                // Alternate heap and native payloads: both kinds of segment must travel.
                MemorySegment payload = (seq % 2 == 0 ? MemorySegment.ofArray(heap) : nativeBuffer)
                        .asSlice(0, sizes[seq]);
                fill(payload, seq);
                header.clear().putInt(0, seq);
                job.send(link, 2, 5, header, payload);
            }
        }

        job.awaitDelivered(0, count, WAIT);
        List<RecordingSink.Rsr> got = job.sink(0).received();
        assertEquals(count, got.size());
        for (int seq = 0; seq < count; seq++) {
            RecordingSink.Rsr rsr = got.get(seq);
            assertEquals(seq, rsr.firstInt(), "RSR " + seq + " out of order");
            assertEquals(4 + sizes[seq], rsr.body().length, "size of RSR " + seq);
            checkFill(rsr.body(), 4, seq);
        }
    }

    @Test
    void twoSendersToOneReceiverEachArriveInOrder() throws Exception {
        ModuleTestJob job = startJob(3);
        int perSender = 3000;
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> senders = new ArrayList<>();
        for (int sender = 1; sender <= 2; sender++) {
            CommObject link = job.link(sender, 0);
            int seed = sender;
            senders.add(Thread.ofPlatform().name("sender-" + sender).start(() -> {
                try {
                    go.await();
                    Random random = new Random(seed);
                    ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                    byte[] buffer = new byte[16 * 1024];
                    for (int seq = 0; seq < perSender; seq++) {
                        MemorySegment payload = MemorySegment.ofArray(buffer).asSlice(0, random.nextInt(buffer.length));
                        fill(payload, seq);
                        header.clear().putInt(0, seq);
                        job.send(link, 4, 4, header, payload);
                    }
                } catch (Throwable t) {
                    errors.add(t);
                }
            }));
        }
        go.countDown();
        for (Thread t : senders) {
            t.join(WAIT.toMillis());
        }
        if (!errors.isEmpty()) {
            fail("a sender failed", errors.peek());
        }

        job.awaitDelivered(0, 2 * perSender, WAIT);
        int[] next = new int[3];
        for (RecordingSink.Rsr rsr : job.sink(0).received()) {
            assertEquals(next[rsr.source()], rsr.firstInt(), "order of RSRs from rank " + rsr.source());
            checkFill(rsr.body(), 4, next[rsr.source()]);
            next[rsr.source()]++;
        }
        assertEquals(perSender, next[1]);
        assertEquals(perSender, next[2]);
    }

    @Test
    void payloadsOfPrimitiveArraysArriveByteExact() throws Exception {
        ModuleTestJob job = startJob(2);
        int[] ints = new Random(7).ints(1000).toArray();
        ints[0] = 0x01020304;
        long[] longs = new Random(8).longs(64).toArray();
        double[] doubles = new Random(9).doubles(33).toArray();
        CommObject link = job.link(0, 1);
        MemorySegment longSlice = MemorySegment.ofArray(longs).asSlice(8, 80);
        job.send(link, 1, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(ints));
        job.send(link, 1, 2, ByteBuffer.allocate(0), longSlice);
        job.send(link, 1, 3, ByteBuffer.allocate(0), MemorySegment.ofArray(doubles));

        job.awaitDelivered(1, 3, WAIT);
        List<RecordingSink.Rsr> got = job.sink(1).received();
        assertArrayEquals(MemorySegment.ofArray(ints).toArray(ValueLayout.JAVA_BYTE), got.get(0).body());
        assertArrayEquals(longSlice.toArray(ValueLayout.JAVA_BYTE), got.get(1).body());
        assertArrayEquals(MemorySegment.ofArray(doubles).toArray(ValueLayout.JAVA_BYTE), got.get(2).body());
    }

    @Test
    void aHandlerMaySendFromWithinDelivery() throws Exception {
        ModuleTestJob job = startJob(2);
        int rounds = 200;
        CommObject back = job.link(1, 0);
        job.sink(1).onDeliver(rsr -> {
            ByteBuffer header = ByteBuffer.wrap(rsr.body());
            if (back.send(rsr.endpoint(), rsr.handler(), header, MemorySegment.ofArray(new byte[0]))
                    != org.weft.mm.spi.SendStatus.SENT) {
                throw new IllegalStateException("reply not sent");
            }
        });
        CommObject there = job.link(0, 1);
        ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        for (int round = 0; round < rounds; round++) {
            header.clear().putInt(0, round);
            job.send(there, 1, 1, header, MemorySegment.ofArray(new byte[0]));
            job.awaitDelivered(0, round + 1, WAIT);
            assertEquals(round, job.sink(0).received().get(round).firstInt());
        }
    }

    @Test
    void connectReturnsTheSameObjectEveryTime() throws Exception {
        ModuleTestJob job = startJob(2);
        CommModule module = job.module(0);
        CommObject first = module.connect(1, job.descriptor(1));
        assertSame(first, module.connect(1, job.descriptor(1)));
        assertEquals(module.name(), first.methodName());

        CommObject[] seen = new CommObject[4];
        List<Thread> threads = new ArrayList<>();
        ModuleTestJob job2 = startJob(2);
        for (int i = 0; i < seen.length; i++) {
            int slot = i;
            threads.add(Thread.ofPlatform().start(() -> seen[slot] = job2.module(1).connect(0, job2.descriptor(0))));
        }
        for (Thread t : threads) {
            t.join(WAIT.toMillis());
        }
        for (CommObject o : seen) {
            assertSame(seen[0], o, "concurrent connects must agree");
        }
    }

    @Test
    void aDescriptorOfAnotherMethodIsNotApplicable() throws Exception {
        ModuleTestJob job = startJob(2);
        assertNull(job.module(0).connect(1, new Descriptor("no-such-method", new byte[] {1, 2, 3})));
    }

    @Test
    void shutdownIsIdempotent() throws Exception {
        ModuleTestJob job = startJob(2);
        job.send(job.link(0, 1), 1, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[] {1}));
        job.awaitDelivered(1, 1, WAIT);
        job.module(0).shutdown();
        job.module(0).shutdown();
    }

    /** Mostly small sizes, some up to 1 MiB, and both ends of the range. */
    static int[] mixedSizes(int count, Random random) {
        int[] sizes = new int[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = i % 500 == 0 ? MIB : i % 50 == 0 ? random.nextInt(MIB) : random.nextInt(2048);
        }
        sizes[1] = 0;
        sizes[count - 1] = MIB;
        return sizes;
    }

    /** A pattern that differs per message and per byte, so a swapped or shifted body shows. */
    static void fill(MemorySegment payload, int seq) {
        for (long i = 0; i < payload.byteSize(); i++) {
            payload.set(ValueLayout.JAVA_BYTE, i, pattern(seq, i));
        }
    }

    static void checkFill(byte[] body, int from, int seq) {
        for (int i = from; i < body.length; i++) {
            if (body[i] != pattern(seq, i - from)) {
                fail("RSR " + seq + ": byte " + (i - from) + " is " + body[i] + ", expected " + pattern(seq, i - from));
            }
        }
    }

    private static byte pattern(int seq, long i) {
        return (byte) (seq * 131 + i * 7 + (i >>> 8));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
