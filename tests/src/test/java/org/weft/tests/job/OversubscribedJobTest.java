package org.weft.tests.job;

import org.junit.jupiter.api.Test;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.Oversubscribed;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** 16 real rank JVMs on this 2-core machine: ring, barrier loop and all-pairs exchange end, with no livelock. */
class OversubscribedJobTest {
    @Test
    void sixteenRanksOnTwoCoresFinishRingBarriersAndAllPairs() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "16", "-J", "-Xmx96m", "-J", "-XX:TieredStopAtLevel=1",
                Oversubscribed.class.getName(), "10").timeout(Duration.ofSeconds(180)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("OVERSUBSCRIBED OK"), result.output());
        System.out.println("16 ranks on " + Runtime.getRuntime().availableProcessors() + " cores: "
                + result.stdout().lines().filter(l -> l.startsWith("OVERSUBSCRIBED")).findFirst().orElse(""));
    }
}
