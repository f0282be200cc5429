package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.CommandRun;
import org.weft.tests.harness.Scripts;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.JobPort;

/**
 * Two jobs on two hosts (network namespaces of this machine, {@code bin/weft-netns}, names {@code dy-h1}/{@code
 * dy-h2} on 10.73.0.0/24 of this class's own): the accepting job's port listens on its host's address, the
 * connecting job dials it there, and the two jobs' ranks meet over tcp between the hosts. Needs root and iproute2
 * (as HostsJobTest).
 */
@Timeout(value = 200, unit = TimeUnit.SECONDS)
class TwoJobsOnTwoHostsJobTest {
    private static final Path NETNS = Scripts.find("bin/weft-netns");
    private static final Map<String, String> OURS = Map.of("WEFT_NETNS_PREFIX", "dy-h", "WEFT_NETNS_SUBNET",
            "10.73.0");
    private static final Duration JOB_LIMIT = Duration.ofSeconds(150);

    @BeforeAll
    static void makeTwoHosts(@TempDir Path dir) throws Exception {
        assertEquals("root", System.getProperty("user.name"), "this test makes network namespaces: run as root");
        netns(dir, "up", "2");
    }

    @AfterAll
    static void removeTheHosts(@TempDir Path dir) throws Exception {
        netns(dir, "down");
    }

    @Test
    void aJobOnEachHostMeetsTheOtherThroughAPort(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("port");
        String rsh = NETNS + " exec";
        CompletableFuture<WeftrunJob.Result> accepting = CompletableFuture.supplyAsync(() -> {
            try {
                return WeftrunJob.of("--rsh", rsh, "--host", "dy-h1:2", "-np", "2", JobPort.class.getName(),
                        "accept", file.toString()).timeout(JOB_LIMIT).start();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        WeftrunJob.Result connecting = WeftrunJob.of("--rsh", rsh, "--host", "dy-h2:1", "-np", "1",
                JobPort.class.getName(), "connect", file.toString()).timeout(JOB_LIMIT).start();
        WeftrunJob.Result accepted = accepting.get(JOB_LIMIT.toSeconds() + 20, TimeUnit.SECONDS);
        String both = accepted.output() + "\n---- connecting job\n" + connecting.output();
        assertEquals(0, accepted.exitCode(), both);
        assertEquals(0, connecting.exitCode(), both);
        assertTrue(connecting.stdout().contains("port at /10.73.0.2:"), "dialled on the other host: " + both);
        assertTrue(accepted.stdout().contains("SIDE accept rank 1 size 2 remote 1 sum 100"), both);
        assertTrue(connecting.stdout().contains("SIDE connect rank 0 size 1 remote 2 sum 201"), both);
    }

    private static void netns(Path dir, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(NETNS.toString()));
        command.addAll(List.of(arguments));
        CommandRun.Result result = CommandRun.run(command, dir, OURS, Duration.ofSeconds(30));
        assertEquals(0, result.exitCode(), "weft-netns " + String.join(" ", arguments) + ":\n" + result.output());
    }
}
