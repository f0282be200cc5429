package org.weft.tests.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Connection set-up over a long path: two sites over the emulated link at a 100 ms round trip, the path measured
 * with 32 TLS streams (the default between sites). The streams' HELLOs and handshakes must not be taken for a dead
 * path: the stripes are dialled one per pass and announced to the peer, whose HELLO limit then grows by the burst's
 * allowance, and the probe waits for them as long as that many streams over that round trip may take. With every
 * stripe made before any could connect and a fixed 5 s HELLO limit, this failed at load 30-45 ({@code no valid
 * HELLO within 5000 ms}); the limit here is 2 s, tighter than the default, and nothing is asserted about speed.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LongPathStreamsTest {
    @RegisterExtension
    static final WideArea WAN = WideArea.upForClass("w1a-", "10.71", "--sites", "2", "--hosts", "1", "--rtt", "100ms",
            "--rate", "100mbit");

    @Test
    void thirtyTwoTlsStreamsOpenOverAHundredMillisecondPathWithinTheLimits() throws Exception {
        WeftrunJob.Result result = WAN.twoSiteJob(1, "--path", "a:b", "max=32",
                "--param", "tcp_handshake_timeout=2000", "--report", "-cp", WeftrunJob.classPath(),
                StripedWildcards.class.getName()).timeout(Duration.ofSeconds(150)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("STRIPED OK 18 messages"), result.output());
        assertFalse(result.output().contains("no valid HELLO"), result.output());
        Matcher m = Pattern.compile("rank 1: path b:a: auto, round trip ([0-9.]+) ms, one stream [0-9.]+ Mbit/s,"
                + " 32 streams [0-9.]+ Mbit/s").matcher(result.stdout());
        assertTrue(m.find(), "the path was not measured with 32 streams:\n" + result.output());
        double rtt = Double.parseDouble(m.group(1));
        assertTrue(rtt >= 100 && rtt < 1000, "measured round trip " + rtt + " ms on a 100 ms link:\n"
                + result.output());
        assertTrue(result.stdout().contains("TLS"), "the report says nothing of TLS:\n" + result.output());
    }
}
