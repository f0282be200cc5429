package org.weft.tests.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.weft.tests.harness.MethodMatrix;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.LargeMessages;
import org.weft.tests.programs.RingUntilKilled;
import org.weft.tests.programs.WildcardOrdering;

/**
 * Jobs over two emulated sites whose compute namespaces have no route to the other site ({@code weft-wan up
 * --no-route}): only the gateways reach across, and {@code weftrun --relay} runs a relay on each. Unchanged MPI
 * programs run through them (tcp between the sites cannot connect, so the relay method takes over); a relay killed
 * mid-job ends the job with an error naming the relay and the paths through it, never a hang.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RelayJobTest {
    @RegisterExtension
    static final WideArea WAN = WideArea.upForClass("wrj-", "10.93", "--sites", "2", "--hosts", "1", "--no-route",
            "--rtt", "10ms", "--rate", "200mbit");

    /** Two ranks per site (shared memory inside), every one sending to rank 0 across and within the sites. */
    @Test
    void aJobWhoseComputeHostsCannotReachTheOtherSiteRunsThroughTheRelays() throws Exception {
        WeftrunJob.Result result = job("a:2", "b:2", "--report", WildcardOrdering.class.getName())
                .timeout(Duration.ofSeconds(150)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("ORDER OK"), result.output());
        MethodMatrix matrix = MethodMatrix.parse(result.stdout(), 4);
        assertEquals("shm", matrix.method(1, 0), matrix.toString());
        assertEquals("relay", matrix.method(2, 0), matrix.toString());
        assertEquals("relay", matrix.method(3, 0), matrix.toString());
        assertTrue(result.stdout().contains("rank 2: relay to rank 0 through relay b (" + WAN.address(2, 254) + ":"),
                result.stdout());
        assertTrue(result.stdout().contains(" and relay a (" + WAN.address(1, 254) + ":"), result.stdout());
    }

    /** Large messages (rendezvous, every byte checked) between the two sites, through both relays. */
    @Test
    void largeMessagesCrossTheRelaysWhole() throws Exception {
        WeftrunJob.Result result = job("a:1", "b:1", "--report", LargeMessages.class.getName())
                .timeout(Duration.ofSeconds(150)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("LARGE OK"), result.output());
        assertEquals("relay", MethodMatrix.parse(result.stdout(), 2).method(0, 1));
    }

    @Test
    void aRelayKilledMidJobEndsTheJobNamingThePathsThroughIt() throws Exception {
        // the ring would end by itself after 600 s: only the relay's death can end it within the test's time
        WeftrunJob.Result result = job("a:1", "b:1", RingUntilKilled.class.getName(), "600")
                .timeout(Duration.ofSeconds(200)).run((weftrun, output) -> killRelayBOnceTheRingRuns(weftrun, output));
        assertNotEquals(0, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("weftrun: the relay of site b on " + WAN.host("bgw") + " (pid "),
                result.output());
        assertTrue(result.stderr().contains("was killed by signal 9 (SIGKILL): the paths between site b and the other"
                + " sites through it are lost"), result.output());
    }

    private static WeftrunJob job(String siteA, String siteB, String... program) {
        List<String> arguments = new java.util.ArrayList<>(List.of("--rsh", WideArea.RSH,
                "--site", siteA + ":" + WAN.host("a1"), "--site-launcher", "a=weft",
                "--site", siteB + ":" + WAN.host("b1"), "--site-launcher", "b=weft",
                "--relay", "a=" + WAN.host("agw"), "--relay", "b=" + WAN.host("bgw")));
        arguments.addAll(List.of(program));
        return WeftrunJob.of(arguments.toArray(String[]::new));
    }

    /** Once rank 0 says the ring runs (its first round went through the relays), SIGKILLs site b's relay. */
    private static void killRelayBOnceTheRingRuns(Process weftrun, Supplier<String> output) {
        Thread.ofVirtual().start(() -> {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
                while (!output.get().contains("RING RUNNING") && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                new ProcessBuilder("kill", "-9", Long.toString(relayIn(WAN.host("bgw")))).start().waitFor();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The relay's JVM in namespace {@code host}. */
    private static long relayIn(String host) throws IOException, InterruptedException {
        Process pids = new ProcessBuilder("ip", "netns", "pids", host).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(pids.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                long pid = Long.parseLong(line.strip());
                boolean relay = ProcessHandle.of(pid).flatMap(p -> p.info().commandLine())
                        .map(c -> c.contains("org.weft.mm.relay.RelayMain")).orElse(false);
                if (relay) {
                    return pid;
                }
            }
        }
        pids.waitFor();
        throw new IllegalStateException("no relay runs in " + host);
    }
}
