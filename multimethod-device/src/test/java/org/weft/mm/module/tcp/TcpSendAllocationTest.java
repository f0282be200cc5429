package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.mm.module.ModuleTestJob;
import org.weft.mm.spi.CommObject;

/**
 * Guards the send path against per-message garbage creeping in (a byte[] copy, a boxed id, a lambda per send).
 * Measured here at about 150 bytes per send (segment views and the outbox's chunks, amortised); the bound is loose
 * on purpose, so that only a real regression fails it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpSendAllocationTest {
    private static final int SENDS_PER_ROUND = 50_000;
    private static final double BOUND_BYTES_PER_SEND = 512;

    @Test
    void sendingSmallRsrsAllocatesLittlePerMessage() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (ModuleTestJob job = ModuleTestJob.start(2, rank -> new TcpModule(), Map.of())) {
            CommObject link = job.link(0, 1);
            ByteBuffer header = ByteBuffer.allocateDirect(16);
            MemorySegment payload = MemorySegment.ofArray(new byte[64]);
            double best = Double.MAX_VALUE;
            int sent = 0;
            for (int round = 0; round < 6; round++) { // the first rounds warm the JIT up
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < SENDS_PER_ROUND; i++) {
                    job.send(link, 1, 1, header, payload);
                }
                long after = threads.getCurrentThreadAllocatedBytes();
                sent += SENDS_PER_ROUND;
                job.awaitDelivered(1, sent, Duration.ofSeconds(30)); // keep the outbox from growing without bound
                best = Math.min(best, (after - before) / (double) SENDS_PER_ROUND);
            }
            assertTrue(best < BOUND_BYTES_PER_SEND, "send allocates " + best + " bytes per message");
        }
    }

    /**
     * A poll that finds nothing allocates nothing: a waiting rank polls millions of times. (The lost-peer check
     * passed a method reference made per poll, 16 bytes each time, seen in a TLS ping-pong's allocation profile.)
     */
    @Test
    void anIdlePollAllocatesNothing() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (ModuleTestJob job = ModuleTestJob.start(2, rank -> new TcpModule(), Map.of())) {
            job.send(job.link(0, 1), 1, 1, ByteBuffer.allocateDirect(16), MemorySegment.ofArray(new byte[64]));
            job.awaitDelivered(1, 1, Duration.ofSeconds(30)); // connected both ways: links and streams to poll
            var module = job.module(1);
            long least = Long.MAX_VALUE;
            for (int round = 0; round < 6; round++) { // the first rounds warm the JIT up
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < SENDS_PER_ROUND; i++) {
                    module.poll();
                }
                least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
            }
            assertTrue(least < SENDS_PER_ROUND, least + " bytes allocated by " + SENDS_PER_ROUND + " idle polls");
        }
    }
}
