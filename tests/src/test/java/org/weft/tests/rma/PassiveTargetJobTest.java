package org.weft.tests.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ContendedLocks;
import org.weft.tests.programs.LockFairness;
import org.weft.tests.programs.PassiveTarget;

/**
 * Passive target in real jobs: origins lock, put, get, accumulate and unlock while the target sleeps without
 * calling MPI (its window's service thread serves them), on the default methods and on tcp, and with the window in
 * shared memory (buffers from {@code MPI.newByteBuffer}: the origins' own stores, no thread); and an error on a
 * window under its default handler aborts the job with the error class as exit code.
 */
class PassiveTargetJobTest {
    /** The most the target stays away from MPI; it comes back once the origins are done (1-4 s, more loaded). */
    private static final int SLEEP_MILLIS = 120_000;
    /** When the shared lockers of the fairness test stop waiting for the exclusive one's flag. */
    private static final int GIVE_UP_MILLIS = 20_000;
    /** The most an exclusive request may wait behind the shared lockers (they hold 20 ms each; loaded machine). */
    private static final int EXCLUSIVE_BOUND_MILLIS = 8_000;
    /**
     * The most shared locks granted while the exclusive request waits: in arrival order only those asked for
     * before it (one a locker) and the moment's before it asked; without a queue, hundreds of thousands.
     */
    private static final int GRANTS_WHILE_WAITING = 100;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"default", "tcp", "shared"})
    void originsCompleteWhileTheTargetSleeps(String methods, @TempDir Path dir) throws Exception {
        String[] command = switch (methods) {
            case "default" -> new String[] {"-np", "3", PassiveTarget.class.getName(), String.valueOf(SLEEP_MILLIS),
                dir.toString()};
            case "shared" -> new String[] {"-np", "3", PassiveTarget.class.getName(), String.valueOf(SLEEP_MILLIS),
                dir.toString(), "shared"};
            default -> new String[] {"--methods", "tcp", "-np", "3", PassiveTarget.class.getName(),
                String.valueOf(SLEEP_MILLIS), dir.toString()};
        };
        WeftrunJob.Result result = WeftrunJob.of(command).timeout(Duration.ofSeconds(240)).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int origin = 1; origin <= 2; origin++) {
            assertTrue(result.stdout().contains("origin " + origin + " read " + (1000 + origin)), result.output());
        }
        assertFalse(result.stdout().contains("AFTER the target woke"), result.output());
        assertTrue(result.stdout().matches("(?s).*target holds 100[12] 2\\b.*"), result.output());
        if (methods.equals("shared")) { // a window in shared memory: the origins did it all, no thread served them
            assertTrue(result.stdout().contains("service threads 0"), result.output());
        }
    }

    /**
     * Four processes on this machine's two cores take one exclusive lock 2000 times each on a window in shared
     * memory (and a shared one every fifth time): no increment is lost, and the job ends — a waiter backs off to
     * parking, so it does not hold off the holder it waits for.
     */
    @Test
    void exclusiveLocksContendedByFourRanksOnTwoCores() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "4", ContendedLocks.class.getName(), "2000")
                .timeout(Duration.ofSeconds(180)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("counter 8000 of 8000"), result.output());
    }

    /**
     * Three ranks of four (on two cores) keep taking shared locks on rank 0's window, one of them by
     * {@code lockAll}, each holding on until another has one too, while the fourth asks for an exclusive lock: it
     * gets the lock within a bound (a waiting exclusive request holds back newer shared ones), nobody shared is
     * inside while it holds it, few shared locks are granted while it waits (arrival order), and every shared
     * locker stops on its flag rather than giving up. Without a queue
     * the shared locks overlap for ever and the exclusive one starves until the lockers give up.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shared", "messages"})
    void anExclusiveLockIsNotStarvedByAStreamOfSharedOnes(String memory) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "4", LockFairness.class.getName(), memory,
                String.valueOf(GIVE_UP_MILLIS)).timeout(Duration.ofSeconds(120)).start();
        assertEquals(0, result.exitCode(), result.output());
        Matcher granted = Pattern.compile("exclusive after (\\d+) ms, (\\d+) shared grants, (\\d+) while it waited,"
                + " inside (\\d+)").matcher(result.stdout());
        assertTrue(granted.find(), result.output());
        assertTrue(Long.parseLong(granted.group(1)) < EXCLUSIVE_BOUND_MILLIS, result.output());
        assertTrue(Long.parseLong(granted.group(2)) > 0, result.output());
        assertTrue(Long.parseLong(granted.group(3)) <= GRANTS_WHILE_WAITING, result.output());
        assertEquals("0", granted.group(4), result.output());
        assertFalse(result.stdout().contains("gave up"), result.output());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(result.stdout().contains("rank " + rank + " saw the flag"), result.output());
        }
    }

    @Test
    void aPutOutsideAnEpochAbortsTheJobWithErrRmaSync() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", PassiveTarget.class.getName(), "fatal")
                .timeout(Duration.ofSeconds(60)).start();
        assertFalse(result.stdout().contains("SURVIVED"), result.output());
        assertEquals(47, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("MPI_Put on an unnamed window failed: MPI_ERR_RMA_SYNC"),
                result.output());
    }
}
