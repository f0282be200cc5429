package org.weft.tests.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.WeftrunJob;

/**
 * The PHOLD example (optimistic simulation under Time Warp: rollbacks, anti-messages, GVT by collectives) commits
 * the events and final states of a sequential run of the same seed, inside a host and between two sites whose path
 * aggregates its many small messages.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class PholdJobTest {
    private static final String[] MODEL = {"lps=24", "end=60", "gvt-every=500", "window=20"};

    private static WeftrunJob.Result run(String... weftrunArgs) throws Exception {
        String[] args = new String[weftrunArgs.length + 1 + MODEL.length];
        System.arraycopy(weftrunArgs, 0, args, 0, weftrunArgs.length);
        args[weftrunArgs.length] = "phold.Phold";
        System.arraycopy(MODEL, 0, args, weftrunArgs.length + 1, MODEL.length);
        WeftrunJob.Result result = WeftrunJob.of(args).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("VERIFIED against the sequential run"), result.output());
        return result;
    }

    @Test
    void threeRanksOnOneHostCommitWhatTheSequentialRunDoes() throws Exception {
        run("-np", "3");
    }

    @Test
    void twoSitesWithAggregatedMessagesCommitWhatTheSequentialRunDoes() throws Exception {
        WeftrunJob.Result result = run("--report", "--site", "a:1", "--site", "b:1", "--site-launcher", "a=weft",
                "--site-launcher", "b=weft", "--param", "tcp_aggregate=fixed", "--param", "tcp_aggregate_window=2000");
        Matcher m = Pattern.compile("rank 0: tcp to rank 1 .*?(\\d+) RSRs in (\\d+) frames").matcher(result.stdout());
        assertTrue(m.find(), result.stdout());
        assertTrue(Long.parseLong(m.group(2)) < Long.parseLong(m.group(1)), "events share frames: " + m.group());
        assertTrue(result.stdout().contains("rollbacks"), result.stdout());
    }
}
