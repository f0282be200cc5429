package org.weft.tests.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.StripedWildcards;

/**
 * Two sites over the emulated link ({@code bin/weft-wan}, 20 ms round trip, 100 Mbit/s): large and small messages
 * mixed, striped over an auto-tuned path, keep each sender's order under wildcards and probes, and the path reports
 * the round trip it measured through the link. Needs root, /dev/net/tun and iproute2 (CI has them).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StripedWideAreaTest {
    @RegisterExtension
    static final WideArea WAN = WideArea.upForClass("wss-", "10.92", "--sites", "2", "--hosts", "1", "--rtt", "20ms",
            "--rate", "100mbit");

    @Test
    void stripedMessagesOverTheEmulatedPathKeepOrderAndTheMeasuredRoundTripIsTheLinks() throws Exception {
        WeftrunJob.Result result = WAN.twoSiteJob(1, "--path", "a:b", "max=4", "--report", "-cp",
                WeftrunJob.classPath(), StripedWildcards.class.getName()).timeout(Duration.ofSeconds(120)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("STRIPED OK 18 messages"), result.output());
        Matcher m = Pattern.compile("rank 1: path b:a: auto, round trip ([0-9.]+) ms, one stream ([0-9.]+) Mbit/s,"
                + " 4 streams ([0-9.]+) Mbit/s").matcher(result.stdout());
        assertTrue(m.find(), result.output());
        double rtt = Double.parseDouble(m.group(1));
        // the least of 3 pings: never below the link's; above it by the answering rank's lateness to poll, which was
        // 110 ms at load 30 (130.7 ms measured); 25 times the link's still tells a unit slip or a ping queued
        // behind bulk data (seconds)
        assertTrue(rtt >= 20 && rtt < 500, "measured round trip " + rtt + " ms on a 20 ms link:\n" + result.output());
        // The meter's arithmetic is checked exactly, with a clock, by ProbeMeterTest (a +1-frame bias gave 110.8 on
        // this link in CI, 52d77f9). Here the receiving thread times frames when it gets to them: what waited in the
        // kernel's buffers of the four sockets when it reached the phase's middle counts in the 200 ms second half
        // (a CI run at load ~5 measured 131.4 Mbit/s: ~0.8 MB of backlog, a few hundred KB a socket). 160 Mbit/s is
        // beyond that noise, and below what a wrong measurement shows (a sender timing its writes into its socket
        // buffers sees hundreds).
        assertTrue(Double.parseDouble(m.group(3)) <= 100 * 1.6, "faster than the link:\n" + result.output());
        assertTrue(result.stdout().contains("rank 1: path b:a 4MiB-8MiB: "), result.output());
    }
}
