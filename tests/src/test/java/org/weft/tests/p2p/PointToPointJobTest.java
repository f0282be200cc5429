package org.weft.tests.p2p;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.BadInput;
import org.weft.tests.programs.CancelRecv;
import org.weft.tests.programs.LargeMessages;
import org.weft.tests.programs.SyncSend;
import org.weft.tests.programs.ThreadedPingPong;
import org.weft.tests.programs.WildcardOrdering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Point-to-point semantics in real jobs: separate JVMs launched by {@code weftrun}, talking TCP. */
class PointToPointJobTest {
    private static WeftrunJob.Result run(int np, Class<?> program, String... args) throws Exception {
        String[] argv = new String[3 + args.length];
        argv[0] = "-np";
        argv[1] = Integer.toString(np);
        argv[2] = program.getName();
        System.arraycopy(args, 0, argv, 3, args.length);
        WeftrunJob.Result result = WeftrunJob.of(argv).start();
        assertEquals(0, result.exitCode(), () -> "exit code; output:\n" + result.output());
        return result;
    }

    @Test
    void wildcardReceivesKeepEachSendersOrderAcrossTheRendezvousThreshold() throws Exception {
        WeftrunJob.Result result = run(4, WildcardOrdering.class, "60");
        assertTrue(result.stdout().contains("ORDER OK 180 messages"), result.output());
    }

    @Test
    void badArgumentsGiveTheirErrorClassAndTheJobGoesOn() throws Exception {
        WeftrunJob.Result result = run(3, BadInput.class);
        assertTrue(result.stdout().contains("BADINPUT OK"), result.output());
    }

    @Test
    void synchronousSendWaitsForTheMatchingReceive() throws Exception {
        WeftrunJob.Result result = run(2, SyncSend.class);
        assertTrue(result.stdout().contains("SSEND OK"), result.output());
    }

    /** Rendezvous over shm and over tcp: every byte, a late-posted receive, truncation, many in flight. */
    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void largeMessagesArriveWholeOverEachMethod(String method) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--methods", "self," + method, "-np", "2",
                LargeMessages.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("LARGE OK"), result.output());
    }

    /**
     * Over shm, the data of a large message between direct buffers is copied once, by the receiver, out of the
     * sender's memory (cross-memory attach): rank 0 then sends an RTS per message and a PULLED answer per echo, no
     * DATA RSRs; every byte arrives either way, truncation and the heap-array cases (which keep the ring) included.
     */
    @Test
    void largeShmMessagesBetweenDirectBuffersAreCopiedOnceByTheReceiver() throws Exception {
        WeftrunJob.Result single = WeftrunJob.of("--report", "--methods", "self,shm", "-np", "2",
                LargeMessages.class.getName()).start();
        WeftrunJob.Result ring = WeftrunJob.of("--report", "--methods", "self,shm", "-np", "2", "--param",
                "shm_single_copy=none", LargeMessages.class.getName()).start();
        for (WeftrunJob.Result result : java.util.List.of(single, ring)) {
            assertEquals(0, result.exitCode(), result.output());
            assertTrue(result.stdout().contains("LARGE OK"), result.output());
        }
        long messages = Long.parseLong(find(single.stdout(), "LARGE OK (\\d+) messages"));
        long inPlace = Long.parseLong(find(single.stdout(), "(?m)^0\\s+shm\\s+(\\d+)"));
        long fragmented = Long.parseLong(find(ring.stdout(), "(?m)^0\\s+shm\\s+(\\d+)"));
        // the sends to a heap array still go in fragments (7 of them); through the ring every message does (72 in all)
        assertTrue(inPlace <= 2 * messages + 10 && fragmented >= inPlace + 25,
                "RSRs sent by rank 0: " + inPlace + " with the single copy, " + fragmented + " through the ring, for "
                        + messages + " messages\n" + single.stdout());
    }

    private static String find(String text, String regex) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> "no match for " + regex + " in:\n" + text);
        return m.group(1);
    }

    /**
     * Four threads per rank make 5000 round trips each of 8 B to 9 KB at once (MPI_THREAD_MULTIPLE), every echo
     * checked, under the automatic idle strategy and under busy-spinning. The harness's 90 s timeout is a gross
     * bound only (performance is the {@code threads} benchmark's): over tcp, before one thread polled for all
     * waiters (issue 20), this took 142 s with {@code auto} and over 180 s with {@code spin} on a loaded machine,
     * where it now takes 18 s. Two threads per rank too ({@code tcp:auto:2}): there every message is for the thread
     * that did not read it, which then waits without sleeping (issue 20: it slept, and 2 threads were 5.6–8.2 times
     * slower than one).
     */
    @ParameterizedTest
    @ValueSource(strings = {"shm:auto", "tcp:auto", "shm:spin", "tcp:spin", "tcp:auto:2"})
    void threadsPingPongSmallMessagesAtOnceOverEachMethod(String methodAndIdlingAndThreads) throws Exception {
        String[] parts = methodAndIdlingAndThreads.split(":");
        runThreaded(parts[0], parts[1], "", parts.length > 2 ? parts[2] : "4");
    }

    /** Four threads per rank ping-pong 64–256 KiB messages at once (rendezvous from several threads). */
    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void threadsPingPongLargeMessagesAtOnceOverEachMethod(String method) throws Exception {
        runThreaded(method, "auto", "large", "4");
    }

    /**
     * Four threads per rank exchange by iRecv/iSend, small and rendezvous messages, through every completion call:
     * the requests the device reuses (handed back by whichever thread took them) never cross two operations.
     */
    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void threadsExchangeByNonblockingCallsOverEachMethod(String method) throws Exception {
        runThreaded(method, "auto", "nonblocking", "4");
    }

    private static void runThreaded(String method, String idleStrategy, String mode, String threads)
            throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--methods", "self," + method, "--param",
                "idle_strategy=" + idleStrategy, "-np", "2", ThreadedPingPong.class.getName(), mode, threads).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("THREADED OK rank 0") && result.stdout().contains("THREADED OK rank 1"),
                result.output());
    }

    @Test
    void cancelledReceiveCompletesAsCancelled() throws Exception {
        WeftrunJob.Result result = run(2, CancelRecv.class);
        assertTrue(result.stdout().contains("CANCEL OK"), result.output());
    }
}
