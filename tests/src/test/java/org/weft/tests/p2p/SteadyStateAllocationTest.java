package org.weft.tests.p2p;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.InProcessWorld;
import org.weft.tests.harness.SteadyStateAllocation;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.BlockingPingPong;
import org.weft.tests.programs.NonblockingExchange;
import org.weft.tests.programs.PersistentPingPong;
import org.weft.tests.programs.RepeatedCollectives;
import org.weft.tests.programs.RepeatedOneSided;

import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hot paths allocate nothing per message in steady state (DESIGN.md): a persistent send/receive ping-pong of a
 * preallocated buffer, after a warm-up, allocates on neither rank's thread — measured with the JVM's per-thread
 * allocation counter ({@link PersistentPingPong}: the least of several windows after a warm-up). Two ranks in
 * this JVM, over shm (default methods) and over tcp; over nativempi, a site job ({@code SiteJobTest}). Blocking
 * {@code recv} and {@code sendRecv}, whose {@code Status} the program drops, allocate nothing either in a job that
 * {@code weftrun} starts (its ranks get {@code JitHints}), nor do messages that wait as unexpected ones
 * ({@code UnexpectedPool}).
 */
@Timeout(300)
class SteadyStateAllocationTest {
    @ParameterizedTest
    @ValueSource(strings = {"self,shm,tcp", "tcp"})
    void persistentPingPongAllocatesNothingPerMessage(String methods) throws Exception {
        AtomicLongArray allocated = new AtomicLongArray(2);
        InProcessWorld.of(2).with("methods", methods).timeout(SteadyStateAllocation.TIMEOUT).run(rank -> allocated.set(rank,
                PersistentPingPong.leastBytes(rank)));
        for (int rank = 0; rank < 2; rank++) {
            double perMessage = allocated.get(rank) / (2.0 * PersistentPingPong.MEASURED);
            assertTrue(perMessage < 1.0, "rank " + rank + " over " + methods + " allocated " + allocated.get(rank)
                    + " bytes in " + 2 * PersistentPingPong.MEASURED + " messages (" + perMessage + " per message),"
                    + " in the best of at most " + PersistentPingPong.WINDOWS + " windows");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"recv", "sendRecv", "burst", "self"})
    void aBlockingExchangeThatDropsItsStatusAllocatesNothingPerMessage(String call) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", BlockingPingPong.class.getName(), call)
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        SteadyStateAllocation.assertNothingPerMessage(result, 2, "shm with blocking " + call);
    }

    /**
     * A nonblocking exchange ({@code iRecv}, {@code iSend}, {@code waitAll}) allocates only the request objects
     * the API returns, one per operation (24 bytes with compressed pointers); the device reuses its own requests
     * once the API has taken them (~100 bytes a message before, and ~50 more for statuses {@code waitAll} dropped).
     */
    @Test
    void aNonblockingExchangeAllocatesOnlyTheApisRequestObjects() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", NonblockingExchange.class.getName())
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        SteadyStateAllocation.assertPerMessageBelow(result, 2, NonblockingExchange.BYTES_PER_MESSAGE_BOUND,
                "shm with iRecv, iSend and waitAll");
    }

    /**
     * One-sided calls on a window in shared memory, as an inner loop makes them — put, flush, get, flush under one
     * lock; lock, put, unlock; put, fence — allocate nothing: their direct path finds the origin buffer's segment
     * in the window and the target's mapping by rank, the facade's lambdas capture nothing, and a fence is the
     * window's own barrier (main before: 56 bytes a fence in this job; in {@code WindowCalls}, where the JIT did
     * not scalar-replace the facade's capturing lambdas, 56 bytes a put + flush and 41 a lock + put + unlock).
     */
    @ParameterizedTest
    @ValueSource(strings = {"flush", "lock", "fence"})
    void aOneSidedCallOnASharedWindowAllocatesNothing(String call) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", RepeatedOneSided.class.getName(), call)
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        SteadyStateAllocation.assertNothingPerMessage(result, 2, "a window in shared memory with " + call);
    }

    /**
     * A blocking collective called over and over with the same arguments runs the schedule its communicator kept
     * from the first call and allocates nothing (a barrier built its schedule per call at 232 bytes, an allReduce
     * at 464; 1368 and 1824 before the communicator kept its layout). Messages that arrive before their receives
     * (often, in a collective) wait in pooled unexpected messages, received through a segment each keeps: one made
     * per receive was 72 bytes whenever the JIT did not scalar-replace it (up to 6.4 bytes a call in a CI run).
     * Reductions over a shared slot, through the segment in chunks, slice nothing per call either, nor do bcasts,
     * gathers and scatters of direct buffers over a slot, copied between the ranks' buffers.
     */
    @ParameterizedTest
    @ValueSource(strings = {"barrier", "allreduce", "allgather", "alltoall", "gather", "scatter", "scan",
            "reducescatterblock", "largereductions", "largeblocks"})
    void aRepeatedCollectiveRunsItsKeptSchedule(String collective) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", RepeatedCollectives.class.getName(), collective)
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        SteadyStateAllocation.assertNothingPerMessage(result, 2, "a blocking " + collective + " (per call)");
    }
}
