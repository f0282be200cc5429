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
import org.weft.tests.programs.CompressibleStream;

/**
 * {@code tcp_compress=auto} (the default between sites) over the emulated link ({@code bin/weft-wan}, 20 ms round
 * trip, 50 Mbit/s): a stream of compressible 256 KiB messages gets compressed once the link finds its socket falling
 * behind, and a stream of random ones is not, its sampling backed off after a few samples. The report says which.
 * Needs root, /dev/net/tun and iproute2 (CI has them).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CompressionChoiceWideAreaTest {
    @RegisterExtension
    static final WideArea WAN = WideArea.upForClass("w2a-", "10.72", "--sites", "2", "--hosts", "1", "--rtt", "20ms",
            "--rate", "50mbit");
    private static final int MESSAGES = 64;
    /** Rank 0's link to rank 1: compressed frames, raw and compressed bytes, frames whose sample did not compress. */
    private static final Pattern REPORT = Pattern.compile("rank 0: tcp to rank 1 \\(cross-site a-b\\): .*compression"
            + " lz4 auto \\(.*, (\\d+) by the back-off.*\\): (\\d+) frames (\\d+) -> (\\d+) bytes .*, (\\d+) sent raw");

    @Test
    void aCompressibleStreamOverASlowLinkIsCompressed() throws Exception {
        Matcher m = stream("compressible");
        long frames = Long.parseLong(m.group(2));
        long raw = Long.parseLong(m.group(3));
        long compressed = Long.parseLong(m.group(4));
        assertTrue(frames >= MESSAGES / 8, "only " + frames + " frames compressed: " + m.group(0));
        assertTrue(compressed * 3 < raw, "the data compresses 4:1 or better: " + m.group(0));
    }

    @Test
    void anIncompressibleStreamIsNotCompressedAndStopsBeingSampled() throws Exception {
        Matcher m = stream("random");
        assertEquals(0, Long.parseLong(m.group(2)), m.group(0));
        assertTrue(Long.parseLong(m.group(1)) > 0, "no frame skipped by the back-off: " + m.group(0));
        assertTrue(Long.parseLong(m.group(5)) <= MESSAGES / 4, "sampled too often: " + m.group(0));
    }

    private static Matcher stream(String kind) throws Exception {
        WeftrunJob.Result result = WAN.twoSiteJob(1, "--report", "-cp", WeftrunJob.classPath(),
                CompressibleStream.class.getName(), kind, Integer.toString(MESSAGES), Integer.toString(256 << 10))
                .timeout(Duration.ofSeconds(180)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("STREAM OK " + kind + " " + MESSAGES), result.output());
        Matcher m = REPORT.matcher(result.stdout());
        assertTrue(m.find(), "no compression line for rank 0's link in the report:\n" + result.output());
        return m;
    }
}
