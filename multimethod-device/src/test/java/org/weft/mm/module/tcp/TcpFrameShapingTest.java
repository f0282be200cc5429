package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.weft.mm.module.ModuleTestJob;
import org.weft.mm.module.RecordingSink;
import org.weft.mm.spi.CommObject;

/**
 * What the frame layer of tcp does to a path's RSRs when its policies say so: aggregation holds small RSRs and
 * writes them together (when the window, the count or a flush says), compression sends large compressible ones
 * smaller; either way every RSR arrives intact and in its sender's order.
 */
class TcpFrameShapingTest {
    /** Many times what a delivery takes, even at load 30. */
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String FOREVER_MICROS = String.valueOf(TimeUnit.SECONDS.toMicros(60));

    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    private ModuleTestJob job;

    @AfterEach
    void tearDown() {
        if (job != null) {
            job.close();
        }
    }

    private CommObject pair(Map<String, String> parameters) throws Exception {
        job = ModuleTestJob.start(2, rank -> new TcpModule(log::add), parameters);
        CommObject link = job.link(1, 0);
        // The tests start on an open connection, with nothing held.
        job.send(link, 1, 9, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[] {0}));
        job.module(1).flush();
        job.awaitDelivered(0, 1, WAIT);
        return link;
    }

    private static Map<String, String> aggregation(String policy, String windowMicros, String count) {
        Map<String, String> p = new HashMap<>();
        p.put("tcp_aggregate", policy);
        p.put("tcp_aggregate_window", windowMicros);
        p.put("tcp_aggregate_count", count);
        return p;
    }

    private void sendNumbered(CommObject link, int from, int count) {
        for (int i = from; i < from + count; i++) {
            byte[] body = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(i).array();
            job.send(link, 1, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(body));
        }
    }

    /** Polls both ranks for {@code millis}: what is delivered meanwhile is what was not held. */
    private void pollFor(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            if (job.pollAll() == 0) {
                LockSupport.parkNanos(200_000);
            }
        }
    }

    /** Rank 1's report line about its link to rank 0 (the module reports other things too). */
    private String pathLine() {
        return job.module(1).reportLines().stream().filter(l -> l.startsWith("tcp to rank 0")).findFirst()
                .orElseThrow(() -> new AssertionError("no line about the path: " + job.module(1).reportLines()));
    }

    private static void assertInOrder(RecordingSink sink, int first, int count) {
        List<RecordingSink.Rsr> got = sink.received().stream().filter(r -> r.handler() == 1).toList();
        assertEquals(count, got.size());
        for (int i = 0; i < count; i++) {
            assertEquals(first + i, got.get(i).firstInt(), "RSR " + i + " out of order");
        }
    }

    @Test
    void aFixedWindowHoldsSmallRsrsUntilAFlushThenAllArriveInOrderInOneFrame() throws Exception {
        CommObject link = pair(aggregation("fixed", FOREVER_MICROS, "1000"));
        sendNumbered(link, 0, 100);
        job.awaitDelivered(0, 1, WAIT); // the opening RSR, however late this thread gets a core
        pollFor(200);
        assertEquals(1, job.sink(0).count(), "held: nothing but the opening RSR arrived");

        job.module(1).flush(); // what a wait of rank 1 does before it waits
        job.awaitDelivered(0, 101, WAIT);
        assertInOrder(job.sink(0), 0, 100);
        String line = pathLine();
        assertTrue(line.contains("aggregation fixed") && line.contains("101 RSRs in 2 frames"), line);
    }

    /**
     * The window is 3 s, not 50 ms as it was: a test thread that waited 50 ms for a core between the sends and the
     * count (at load 30) saw the rest already gone.
     */
    @Test
    void whatWaitsGoesWhenTheWindowIsOverOrTheCountIsReached() throws Exception {
        CommObject link = pair(aggregation("fixed", "3000000", "10"));
        long start = System.nanoTime();
        sendNumbered(link, 0, 25); // two full aggregates of 10 go at once, 5 wait for the 3 s window
        job.awaitDelivered(0, 21, WAIT);
        pollFor(20);
        assertEquals(21, job.sink(0).count(), "the full aggregates went, the rest waits");
        job.awaitDelivered(0, 26, WAIT); // polling writes the rest once it is due
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 3 + 5, "the rest went " + seconds + " s after the sends, the window being 3 s");
        assertInOrder(job.sink(0), 0, 25);
    }

    @Test
    void adaptiveAggregationSendsARareRsrAtOnceAndCoalescesABurst() throws Exception {
        CommObject link = pair(aggregation("adaptive", FOREVER_MICROS, "64"));
        for (int i = 0; i < 3; i++) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // rare: each longer apart than a frame's cost
            sendNumbered(link, i, 1);
            job.awaitDelivered(0, 2 + i, WAIT); // no flush, no window: it went when sent
        }
        sendNumbered(link, 3, 200); // a burst: each a fraction of a microsecond after the last
        job.awaitDelivered(0, 204, WAIT); // the aggregates end by the frame cost, without a flush
        assertInOrder(job.sink(0), 0, 203);
        String line = pathLine();
        long frames = Long.parseLong(line.replaceAll(".* RSRs in (\\d+) frames.*", "$1"));
        assertTrue(frames < 150, "a burst of 200 small RSRs coalesces: " + line);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!pathLine().contains("holding at most") && System.nanoTime() < deadline) {
            pollFor(10); // the link's PINGs measure the round trip
        }
        assertTrue(pathLine().contains("us (a tenth of the round trip)"), pathLine());
    }

    @Test
    void compressibleDataGoesCompressedRandomDataRawAndAllArriveIntactInOrderAmongAggregatedOnes()
            throws Exception {
        Map<String, String> p = aggregation("fixed", FOREVER_MICROS, "1000");
        p.put("tcp_compress", "lz4");
        CommObject link = pair(p);
        byte[] smooth = new byte[200_000];
        for (int i = 0; i < smooth.length; i++) {
            smooth[i] = (byte) (i / 4096); // long runs: compresses far better than 4:1
        }
        byte[] random = new byte[200_000];
        new SplittableRandom(7).nextBytes(random);
        double[] field = new double[20_000]; // a heap array that is not byte[]: staged before compressing
        for (int i = 0; i < field.length; i++) {
            field[i] = Math.floor(i / 1000.0);
        }
        sendNumbered(link, 0, 3);
        job.send(link, 1, 2, ByteBuffer.allocate(0), MemorySegment.ofArray(smooth));
        sendNumbered(link, 3, 3);
        job.send(link, 1, 3, ByteBuffer.allocate(0), MemorySegment.ofArray(random));
        job.send(link, 1, 4, ByteBuffer.wrap(new byte[] {5, 6}), MemorySegment.ofArray(field));
        sendNumbered(link, 6, 3);
        job.module(1).flush();
        job.awaitDelivered(0, 13, WAIT);

        List<RecordingSink.Rsr> got = job.sink(0).received();
        int[] handlers = got.stream().mapToInt(RecordingSink.Rsr::handler).toArray();
        assertArrayEquals(new int[] {9, 1, 1, 1, 2, 1, 1, 1, 3, 4, 1, 1, 1}, handlers, "sender's order");
        assertInOrder(job.sink(0), 0, 9);
        assertArrayEquals(smooth, got.get(4).body());
        assertArrayEquals(random, got.get(8).body());
        byte[] fieldBytes = MemorySegment.ofArray(field).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        byte[] withHeader = new byte[2 + fieldBytes.length];
        withHeader[0] = 5;
        withHeader[1] = 6;
        System.arraycopy(fieldBytes, 0, withHeader, 2, fieldBytes.length);
        assertArrayEquals(withHeader, got.get(9).body());
        String line = pathLine();
        assertTrue(line.contains("compression lz4: 2 frames"), line);
        assertTrue(line.contains("1 sent raw"), line);
    }

    @Test
    void aPathWithBothOffSaysNothingInTheReport() throws Exception {
        pair(Map.of());
        assertTrue(job.module(1).reportLines().stream().noneMatch(l -> l.contains(" to rank ")),
                String.join("\n", job.module(1).reportLines()));
    }
}
