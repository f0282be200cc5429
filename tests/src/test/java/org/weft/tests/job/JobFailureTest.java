package org.weft.tests.job;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.DieAfterInit;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A rank that dies ends the whole job quickly, with a message naming it, and leaves no process behind. */
class JobFailureTest {
    @ParameterizedTest
    @CsvSource({"halt, 3", "throw, 1", "kill, 137"})
    void aDeadRankEndsTheJob(String how, int expectedCode) throws Exception {
        List<ProcessHandle> ranks = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        WeftrunJob.Result result = WeftrunJob.of("-np", "3", DieAfterInit.class.getName(), "1", how)
                .timeout(Duration.ofSeconds(60))
                .run(weftrun -> {
                    // remember the rank JVMs while they live, to check afterwards that none is left
                    for (int i = 0; i < 100 && ranks.size() < 3; i++) {
                        weftrun.descendants().filter(p -> !ranks.contains(p)).forEach(ranks::add);
                        sleep(50);
                    }
                });
        double seconds = (System.nanoTime() - start) / 1e9;
        assertNotEquals(0, result.exitCode(), result.output());
        assertEquals(expectedCode, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("rank 1"), () -> "the message names the rank:\n" + result.output());
        assertTrue(seconds < 30, "the job ended after " + seconds + " s");
        for (ProcessHandle rank : ranks) {
            for (int i = 0; i < 50 && rank.isAlive(); i++) {
                sleep(100);
            }
            assertFalse(rank.isAlive(), "rank process " + rank.pid() + " outlived its job");
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
