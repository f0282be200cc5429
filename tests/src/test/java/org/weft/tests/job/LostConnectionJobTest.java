package org.weft.tests.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.RankConnections;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.WaitOnLostPeer;

/**
 * A tcp connection between two live ranks that is cut from outside (reset, as a firewall or a broken path does)
 * fails whatever waits on the other rank — a receive, a wildcard receive, a probe, a rendezvous send, a synchronous
 * send, sends held by back-pressure — with {@code MPI_ERR_OTHER} and a message naming the peer, within seconds,
 * on both sides; it used to leave both waiting forever. Plaintext inside one site, and TLS between two sites. (A
 * rank that dies is the launcher's to report: {@code JobFailureTest}, {@code SiteJobTest}.)
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LostConnectionJobTest {
    private static final Pattern LOST = Pattern.compile("LOST rank=(\\d) op=(\\w+) class=(\\d+): (.*)");
    /**
     * How long a rank waits after the loss before it tells it ({@code tcp_lost_peer_wait}, 3 s by default, for the
     * launcher to report a rank that died first): both ranks live on here, so a short wait tests the same and takes
     * 2.7 s less a case.
     */
    private static final String LOST_PEER_WAIT = "tcp_lost_peer_wait=300";
    /** Generous: the loss is told after the wait above and finalize follows; a hang takes forever. */
    private static final Duration JOB_LIMIT = Duration.ofSeconds(120);
    private static final int ERR_OTHER = 16;

    @ParameterizedTest(name = "{0} over {1}")
    @CsvSource({"recv, plaintext", "anysource, plaintext", "probe, plaintext", "rendezvous, plaintext",
            "ssend, plaintext", "backpressure, plaintext", "recv, tls", "rendezvous, tls"})
    void aCutConnectionFailsWhatWaitsOnThePeerOnBothSides(String op, String wire) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("--methods", "self,tcp", "--param", "tcp_send_queue=1M",
                "--param", LOST_PEER_WAIT));
        arguments.addAll(wire.equals("tls") ? List.of("--site", "a:1", "--site", "b:1", "--site-launcher", "a=weft",
                "--site-launcher", "b=weft") : List.of("-np", "2"));
        arguments.addAll(List.of(WaitOnLostPeer.class.getName(), op));
        long[] cutAt = new long[1];
        List<RankConnections.Connection> cut = new ArrayList<>();
        WeftrunJob.Result result = WeftrunJob.of(arguments.toArray(String[]::new)).timeout(JOB_LIMIT)
                .run((weftrun, output) -> {
                    awaitLine(output, "READY " + op);
                    awaitLine(output, "PEER READY");
                    sleep(500); // rank 0 is in its wait by now
                    try {
                        Set<Long> ranks = weftrun.descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
                        cut.addAll(RankConnections.between(ranks));
                        for (RankConnections.Connection c : cut) {
                            RankConnections.cut(c);
                        }
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                    cutAt[0] = System.nanoTime();
                });
        double seconds = (System.nanoTime() - cutAt[0]) / 1e9;
        assertFalse(cut.isEmpty(), "no connection between the ranks was found to cut\n" + result.output());
        assertEquals(0, result.exitCode(), result.output());
        assertFalse(result.stdout().contains("NOT LOST"), result.output());
        for (int rank = 0; rank < 2; rank++) {
            Matcher m = lostLine(result.stdout(), rank);
            assertTrue(m != null, "rank " + rank + " reported no failure:\n" + result.output());
            assertEquals(ERR_OTHER, Integer.parseInt(m.group(3)), result.output());
            assertTrue(m.group(4).contains("rank " + (1 - rank)), "the error names the peer: " + m.group(0));
        }
        assertTrue(seconds < 60, "the job ended " + seconds + " s after the cut");
    }

    private static Matcher lostLine(String stdout, int rank) {
        for (String line : stdout.split("\n")) {
            Matcher m = LOST.matcher(line.strip());
            if (m.matches() && Integer.parseInt(m.group(1)) == rank) {
                return m;
            }
        }
        return null;
    }

    private static void awaitLine(java.util.function.Supplier<String> output, String line) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!output.get().contains(line)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no '" + line + "' within 60 s:\n" + output.get());
            }
            sleep(50);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
