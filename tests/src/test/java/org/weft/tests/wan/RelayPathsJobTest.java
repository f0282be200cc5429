package org.weft.tests.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.weft.tests.harness.MethodMatrix;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.SpawnAcrossSites;
import org.weft.tests.programs.StripedWildcards;

/**
 * What goes through the relays besides a world's own pairs, over two emulated sites whose compute namespaces have no
 * route to each other ({@code weft-wan up --no-route}; only the gateways, where the relays run, reach across):
 * a wide-area path's stripes (each stream a relayed connection of its own, dialled back by the receiver), and a
 * spawned world, which must get the job's relays to reach parents in the other site.
 */
@Timeout(value = 200, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RelayPathsJobTest {
    @RegisterExtension
    static final WideArea WAN = WideArea.upForClass("w1b-", "10.71", "--sites", "2", "--hosts", "1", "--no-route",
            "--rtt", "20ms", "--rate", "100mbit");

    /** Large and small messages mixed under wildcards, the large ones striped over 4 relayed streams. */
    @Test
    void stripedMessagesGoThroughTheRelaysInOrder() throws Exception {
        // a fixed stream count: an auto-tuned path may measure that one relayed stream is as fast as four (the
        // relay's one thread carries them all; CI once saw 112 against 49 Mbit/s) and stripe over fewer
        WeftrunJob.Result result = job("--path", "a:b", "streams=4", "--report", StripedWildcards.class.getName())
                .timeout(Duration.ofSeconds(150)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("STRIPED OK 18 messages"), result.output());
        assertEquals("relay", MethodMatrix.parse(result.stdout(), 2).method(1, 0), result.output());
        assertTrue(result.stdout().contains("rank 1: path b:a: 4 streams"), result.output());
        assertTrue(result.stdout().contains("rank 1: path b:a 4MiB-8MiB: 4 streams, 2 messages"), result.output());
    }

    /** The child, in site a, answers both parents: rank 1 of site b only through the relays. */
    @Test
    void aSpawnedWorldReachesParentsInTheOtherSiteThroughTheRelays() throws Exception {
        WeftrunJob.Result result = job(SpawnAcrossSites.class.getName()).timeout(Duration.ofSeconds(150)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("ACROSS OK 0"), result.output());
        assertTrue(result.stdout().contains("ACROSS OK 1"), result.output());
    }

    private static WeftrunJob job(String... program) {
        List<String> arguments = new ArrayList<>(List.of("--rsh", WideArea.RSH,
                "--site", "a:1:" + WAN.host("a1"), "--site-launcher", "a=weft",
                "--site", "b:1:" + WAN.host("b1"), "--site-launcher", "b=weft",
                "--relay", "a=" + WAN.host("agw"), "--relay", "b=" + WAN.host("bgw"), "-cp", WeftrunJob.classPath()));
        arguments.addAll(List.of(program));
        return WeftrunJob.of(arguments.toArray(String[]::new));
    }
}
