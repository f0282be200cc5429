package org.weft.tests.sites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.MethodMatrix;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ShapedWildcardMix;
import org.weft.tests.programs.WaitingSenders;

/**
 * Aggregation and compression on the paths between sites (two sites of Weft's own ranks on this machine, crossing
 * over tcp): messages arrive intact and in order among peers whose paths do neither, a waiting sender never keeps a
 * message held, and {@code --report} shows each path's policy and what it did.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FrameShapingJobTest {
    /** A window no job here lasts: a held message goes only because its sender waits. */
    private static final String FOREVER_MICROS = String.valueOf(TimeUnit.SECONDS.toMicros(600));

    private static List<String> twoSites(int perSite, String... more) {
        List<String> args = new ArrayList<>(List.of("--report", "--site", "a:" + perSite, "--site", "b:" + perSite,
                "--site-launcher", "a=weft", "--site-launcher", "b=weft"));
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void compressedAndAggregatedMessagesArriveIntactUnderAnySourceAmongUncompressedPeers() throws Exception {
        List<String> args = twoSites(2, "--param", "tcp_compress=cross-site:lz4",
                "--param", "tcp_aggregate=cross-site:fixed", "--param", "tcp_aggregate_window=" + FOREVER_MICROS,
                ShapedWildcardMix.class.getName(), "90");
        WeftrunJob.Result result = WeftrunJob.of(args.toArray(String[]::new)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("MIX OK 270 messages"), result.output());
        MethodMatrix matrix = MethodMatrix.parse(result.stdout(), 4);
        assertTrue(!matrix.method(1, 0).equals("tcp"), "the same-site sender does not cross tcp\n" + matrix);
        assertEquals("tcp", matrix.method(2, 0), "a cross-site sender\n" + matrix);
        for (int rank : new int[] {2, 3}) {
            String line = find(result.stdout(), "(?m)^rank " + rank + ": tcp to rank 0 \\(cross-site b-a\\): (.*)$");
            assertTrue(line.startsWith("aggregation fixed"), line);
            long rsrs = Long.parseLong(find(line, "(\\d+) RSRs in"));
            long frames = Long.parseLong(find(line, "RSRs in (\\d+) frames"));
            assertTrue(frames < rsrs, "the 90 isends started at once share frames: " + line);
            assertTrue(Long.parseLong(find(line, "compression lz4: (\\d+) frames")) > 0, line);
            assertTrue(Long.parseLong(find(line, "(\\d+) sent raw")) > 0, "random data goes raw: " + line);
        }
        assertTrue(!result.stdout().contains("rank 1: tcp to rank 0"), "nothing shapes a same-site path\n"
                + result.stdout());
    }

    @Test
    void noMessageStaysHeldWhileItsSenderWaits() throws Exception {
        List<String> args = twoSites(1, "--param", "tcp_aggregate=fixed", "--param",
                "tcp_aggregate_window=" + FOREVER_MICROS, "--param", "tcp_aggregate_count=1000000",
                WaitingSenders.class.getName(), "50");
        WeftrunJob.Result result = WeftrunJob.of(args.toArray(String[]::new)).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(result.stdout().contains("WAITS OK rank " + rank + " 50 rounds"), result.output());
        }
        String line = find(result.stdout(), "(?m)^rank 0: tcp to rank 1 \\(cross-site a-b\\): (.*)$");
        assertTrue(line.startsWith("aggregation fixed (window 600000000 us"), line);
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> "no match for " + regex + " in:\n" + text);
        return m.group(1);
    }
}
