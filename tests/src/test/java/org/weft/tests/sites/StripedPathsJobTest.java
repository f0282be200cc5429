package org.weft.tests.sites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.StreamsHint;
import org.weft.tests.programs.StripeDies;
import org.weft.tests.programs.StripeRefused;
import org.weft.tests.programs.StripedWildcards;

/**
 * Wide-area paths between sites emulated on this machine (loopback, tcp across): large messages striped over
 * several streams keep MPI's order and wildcards; an auto-tuned path is measured and says what it chose; a job on
 * one site has no path and pays nothing; a stream killed in mid-message ends the job with an error naming the path,
 * and so does a stream the receiver closes before its HELLO.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StripedPathsJobTest {
    /** Two senders in site b, one receiver in site a, 4 streams a path, large and small messages mixed. */
    @Test
    void stripedMessagesKeepEachSendersOrderUnderWildcardsAndProbes() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:1", "--site", "b:2", "--path", "a:b",
                "streams=4,min=64k", "--report", "-cp", WeftrunJob.classPath(), StripedWildcards.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("STRIPED OK 36 messages"), result.output());
        // each sender's path: 4 streams for every striped size class, 2 messages of 4-8 MiB among them
        for (int rank : new int[] {1, 2}) {
            assertTrue(result.stdout().contains("rank " + rank + ": path b:a: 4 streams"), result.output());
            assertTrue(result.stdout().contains("rank " + rank + ": path b:a 4MiB-8MiB: 4 streams, 2 messages,"
                    + " 10485766 bytes"), result.output());
        }
        assertFalse(result.stdout().contains("32KiB-64KiB"), "a message under min= was striped:\n"
                + result.output());
    }

    /** Auto (the default): the first striped message measures the path; the report gives round trip and rates. */
    @Test
    void anAutoTunedPathIsMeasuredAndReportsItsChoice() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:1", "--site", "b:1", "--path", "a:b", "max=4",
                "--report", "-cp", WeftrunJob.classPath(), StripeDies.class.getName(), "8", "auto", "0").start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("DELIVERED"), result.output());
        assertTrue(result.stdout().matches("(?s).*rank 0: path a:b: auto, round trip [0-9.]+ ms, one stream [0-9.]+"
                + " Mbit/s, 4 streams [0-9.]+ Mbit/s, probe bytes [1-9][0-9]*\n.*rank 0: path a:b 8MiB-16MiB: [1-4]"
                + " streams, 1 messages, 8388608 bytes\n.*"), result.output());
    }

    /** A communicator's info key {@code weft_streams} sets the streams of its messages, over the path's choice. */
    @Test
    void aCommunicatorsInfoSetsItsStreams() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:1", "--site", "b:1", "--path", "a:b", "streams=2",
                "--report", "-cp", WeftrunJob.classPath(), StreamsHint.class.getName(), "3").start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("HINTED OK"), result.output());
        assertTrue(result.stdout().contains("rank 0: path a:b 4MiB-8MiB: 3 streams, 1 messages, 4194304 bytes"),
                result.output());
    }

    /** One site: no path, no measurement, no stream (the report would list them). */
    @Test
    void aJobOnOneSiteHasNoWideAreaPath() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "3", "--methods", "self,tcp", "--report",
                StripedWildcards.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("STRIPED OK"), result.output());
        assertFalse(result.stdout().contains(" path "), result.output());
    }

    /**
     * While the receiver sleeps, the message's streams are the job's only connections with bytes waiting to be
     * sent; one of them is killed ({@code ss -K}, root only): the job ends, not hangs, with an error naming the
     * path, and the message is not reported delivered. The receiver sleeps 600 s, longer than the test may run, so
     * only the failure can end the job; it must end soon after the kill (timed from the kill: the start takes
     * 10-30 s on a loaded machine).
     */
    @Test
    void aStreamKilledMidMessageEndsTheJobNamingThePath() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "ss -K needs root");
        String marker = "stripe-" + UUID.randomUUID();
        long[] killedAt = new long[1];
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:1", "--site", "b:1", "--path", "a:b",
                "streams=4", "-cp", WeftrunJob.classPath(), StripeDies.class.getName(), "256", marker, "600")
                .timeout(Duration.ofSeconds(240)).run(job -> killedAt[0] = killOneStreamOf(marker));
        long ended = System.nanoTime();
        assertTrue(killedAt[0] != 0, "no stream with bytes waiting was found to kill:\n" + result.output());
        long seconds = TimeUnit.NANOSECONDS.toSeconds(ended - killedAt[0]);
        assertNotEquals(0, result.exitCode(), result.output());
        assertFalse(result.stdout().contains("DELIVERED"), result.output());
        assertTrue(result.output().contains("wide-area path a:b"), result.output());
        assertTrue(seconds < 40, "the job ended " + seconds + " s after the kill");
    }

    /**
     * The receiver closes each stripe before it reads its HELLO (the sender dials them in plaintext, the receiver
     * wants TLS): the sender's send may well have finished (its bytes were in the stripes' sockets), but the
     * receiver hears from the sender that its stripes failed (STRIPES_FAILED) and its receive fails naming the path.
     * Before, the receive waited for ever (the job hung until the harness's timeout).
     */
    @Test
    void aStripeTheReceiverClosesBeforeItsHelloFailsTheReceiveNamingThePath() throws Exception {
        String program = StripeRefused.class.getName();
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:1", "--site", "b:1", "--path", "a:b", "streams=4",
                "-x", "WEFT_TCP_TLS=none", "-cp", WeftrunJob.classPath(), program, "8",
                ":", "-np", "1", "-x", "WEFT_TCP_TLS=cross-site", "-cp", WeftrunJob.classPath(), program, "8")
                .timeout(Duration.ofSeconds(150)).start();
        assertTrue(result.stdout().contains("RECEIVE FAILED: "), result.output());
        assertTrue(result.stdout().matches("(?s).*RECEIVE FAILED: [^\n]*wide-area path a:b: stream .*"),
                result.output());
        assertFalse(result.stdout().contains("DELIVERED"), result.output());
    }

    /**
     * Kills one connection of the job's processes that has bytes waiting (a stream of the sleeping receiver);
     * returns when (its {@code System.nanoTime()}), or 0 if none was found within 150 s.
     */
    private static long killOneStreamOf(String marker) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
        try {
            while (System.nanoTime() < deadline) {
                // pgrep: ProcessHandle's command line comes back empty for the ranks' long ones here
                Set<String> pids = Set.of(run("pgrep", "-f", marker).trim().split("\\s+"));
                for (String line : run("ss", "-tnpH", "state", "established").split("\n")) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length >= 5 && Long.parseLong(f[1]) > 1_000_000 && pids.stream().anyMatch(pid ->
                            !pid.isEmpty() && line.contains("pid=" + pid + ","))) {
                        String localPort = f[2].substring(f[2].lastIndexOf(':') + 1);
                        String peerPort = f[3].substring(f[3].lastIndexOf(':') + 1);
                        run("ss", "-K", "sport = :" + localPort + " and dport = :" + peerPort);
                        return System.nanoTime();
                    }
                }
                Thread.sleep(200);
            }
            return 0;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }
}
