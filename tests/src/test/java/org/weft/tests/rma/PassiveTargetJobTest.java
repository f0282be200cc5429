package org.weft.tests.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ContendedLocks;
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
