package org.weft.tests.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.MethodMatrix;
import org.weft.tests.harness.Scripts;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.DieAfterInit;
import org.weft.tests.programs.NeverInit;
import org.weft.tests.programs.SelfAndRing;

/**
 * {@code weftrun} over two hosts: network namespaces of this machine (own interfaces, own addresses on a bridge,
 * nothing reachable but each other and this machine), entered through {@code bin/weft-netns exec} as the remote
 * shell in place of ssh. Ranks on one host share memory (or their site's mpirun), ranks on different hosts meet
 * over tcp on the bridge's addresses; a rank dying on another host ends the job and leaves nothing there. Needs
 * root and iproute2 ({@code .ci/run} runs as root); without them these tests fail and say so.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class HostsJobTest {
    private static final String PREFIX = "wtest-h";
    private static final String HOST_1 = PREFIX + "1";
    private static final String HOST_2 = PREFIX + "2";
    private static final Path NETNS = Scripts.find("bin/weft-netns");
    private static final String RSH = NETNS + " exec";

    @BeforeAll
    static void makeTwoHosts() throws Exception {
        assertEquals("root", System.getProperty("user.name"), "these tests make network namespaces: run as root");
        assertTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "these tests need iproute2 (ip netns)");
        netns("up", "2");
    }

    @AfterAll
    static void removeTheHosts() throws Exception {
        netns("down");
    }

    /** Also: the job's secret is in no process's arguments, on either side of the remote shell (any user sees them). */
    @Test
    void ranksShareMemoryOnAHostAndUseTcpBetweenHosts() throws Exception {
        Path likeSsh = agentLikeSsh();
        Set<String> commandLines = new HashSet<>();
        WeftrunJob.Result result = WeftrunJob.of("--rsh", likeSsh.toString(), "-np", "4", "--host",
                HOST_1 + ":2," + HOST_2 + ":2", "--report", SelfAndRing.class.getName())
                .timeout(Duration.ofSeconds(90)).run(weftrun -> collectCommandLines(weftrun, commandLines));
        Files.delete(likeSsh);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(commandLines.stream().anyMatch(line -> line.contains(likeSsh + " " + HOST_2 + " ")),
                "the remote shells were seen: " + commandLines);
        assertEquals(List.of(), commandLines.stream().filter(line -> line.contains("WEFT_SECRET=")).toList());
        MethodMatrix.parse(result.stdout(), 4).assertRingOfTwoPairs("shm", "shm", "tcp");
        assertTrue(result.stdout().contains("rank 0 on " + HOST_1) && result.stdout().contains("rank 3 on " + HOST_2),
                "the report names each rank's host:\n" + result.stdout());
    }

    @Test
    void eachSiteOnItsOwnHostIsStartedThereByItsOwnMpirun() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--rsh", RSH, "--site", "a:2:" + HOST_1, "--site", "b:2:" + HOST_2,
                "--report", SelfAndRing.class.getName()).timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        MethodMatrix.parse(result.stdout(), 4).assertRingOfTwoPairs("nativempi", "nativempi", "tcp");
    }

    /**
     * One native site over both hosts: its mpirun (started on the first) starts its daemons on the hosts with the
     * remote shell given to weftrun, and the site's ranks talk nativempi across hosts (Open MPI's tcp BTL below).
     */
    @Test
    void anOpenMpiSiteOverTwoHostsStartsItsDaemonsWithWeftrunsRemoteShell() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--rsh", RSH, "--site", "a:2:" + HOST_1 + "," + HOST_2, "--site",
                "b:2", "--site-launcher", "b=weft", "--report", SelfAndRing.class.getName())
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        MethodMatrix.parse(result.stdout(), 4).assertRingOfTwoPairs("nativempi", "shm", "tcp");
    }

    /**
     * The same with MPICH: Hydra takes the remote shell as one program ({@code -launcher rsh -launcher-exec}), so a
     * script wraps {@code weft-netns exec}; {@code HYDRA_IFACE} makes its proxies call back to an address of the
     * namespaces' bridge (the machine's name resolves to loopback there, which a real cluster's would not).
     */
    @Test
    void anMpichSiteOverTwoHostsStartsItsProxiesWithWeftrunsRemoteShell() throws Exception {
        Path agent = agentLikeSsh();
        try {
            WeftrunJob.Result result = WeftrunJob.of("--rsh", agent.toString(), "-x", "HYDRA_IFACE=eth0", "--site",
                    "a:2:" + HOST_1 + "," + HOST_2, "--site-launcher", "a=/usr/bin/mpirun.mpich", "--site", "b:2",
                    "--site-launcher", "b=weft", "--report", SelfAndRing.class.getName()).timeout(Duration.ofSeconds(90)).start();
            assertEquals(0, result.exitCode(), result.output());
            MethodMatrix.parse(result.stdout(), 4).assertRingOfTwoPairs("nativempi", "shm", "tcp");
        } finally {
            Files.delete(agent);
        }
    }

    @Test
    void aRankDyingOnAnotherHostEndsTheJobWithItsCodeAndLeavesNothingThere() throws Exception {
        long[] weftrunPid = new long[1];
        WeftrunJob.Result result = WeftrunJob.of("--rsh", RSH, "-np", "4", "--host", "localhost:2," + HOST_2 + ":2",
                DieAfterInit.class.getName(), "3", "halt").timeout(Duration.ofSeconds(60))
                .run(weftrun -> weftrunPid[0] = weftrun.pid());
        assertEquals(3, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("rank 3 on " + HOST_2), "the message names the rank and its host:\n"
                + result.output());
        for (int i = 0; i < 50 && !processesIn(HOST_2).isEmpty(); i++) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), processesIn(HOST_2), "processes outlived the job on " + HOST_2);
        assertEquals(List.of(), jobDirectoriesOf(weftrunPid[0]), "the job directory is deleted");
    }

    /**
     * The connection to a host drops (its agent is killed) while a rank there has not reached MPI_Init, so no
     * bootstrap connection can end it: the remote line's watch sees its process orphaned and ends it.
     */
    @Test
    void aRankWhoseRemoteShellIsKilledBeforeMpiInitDoesNotOutliveIt() throws Exception {
        Path likeSsh = agentLikeSsh();
        WeftrunJob.Result result = WeftrunJob.of("--rsh", likeSsh.toString(), "-np", "2", "--host",
                "localhost," + HOST_2, NeverInit.class.getName(), "60").timeout(Duration.ofSeconds(60))
                .run(weftrun -> {
                    awaitRankIn(HOST_2);
                    weftrun.descendants().filter(p -> commandLine(p).contains(likeSsh + " " + HOST_2 + " "))
                            .forEach(ProcessHandle::destroyForcibly);
                });
        Files.delete(likeSsh);
        assertTrue(result.exitCode() != 0 && result.stderr().contains("rank 1 on " + HOST_2), result.output());
        for (int i = 0; i < 300 && !processesIn(HOST_2).isEmpty(); i++) { // 30 s: the watch's pace, at load 30
            Thread.sleep(100);
        }
        assertEquals(List.of(), processesIn(HOST_2), "the rank outlived its remote shell on " + HOST_2);
    }

    /**
     * The launcher crashes (SIGKILL) and its remote shell with it, while a rank on another host has not reached
     * MPI_Init: the rank ends and the job's directory there is removed, though no launcher is left to do it.
     */
    @Test
    void aCrashedLauncherLeavesNoRankAndNoJobDirectoryOnAnotherHost() throws Exception {
        Path likeSsh = agentLikeSsh();
        long[] weftrunPid = new long[1];
        WeftrunJob.Result result = WeftrunJob.of("--rsh", likeSsh.toString(), "-np", "1", "--host", HOST_2,
                NeverInit.class.getName(), "60").timeout(Duration.ofSeconds(60))
                .run(weftrun -> {
                    weftrunPid[0] = weftrun.pid();
                    awaitRankIn(HOST_2);
                    List<ProcessHandle> agents = weftrun.descendants()
                            .filter(p -> commandLine(p).contains(likeSsh + " " + HOST_2 + " ")).toList();
                    weftrun.destroyForcibly();
                    agents.forEach(ProcessHandle::destroyForcibly);
                });
        Files.delete(likeSsh);
        assertEquals(137, result.exitCode(), result.output());
        // the remote line's watch looks once a second (a fork of cut each time), kills the rank, waits 2 s and removes
        // the directory: 3-4 s quiet, more at load 30 (CI once found the directory still there after 10 s)
        for (int i = 0; i < 300 && !(processesIn(HOST_2).isEmpty() && jobDirectoriesOf(weftrunPid[0]).isEmpty());
             i++) {
            Thread.sleep(100);
        }
        assertEquals(List.of(), processesIn(HOST_2), "the rank outlived its crashed launcher on " + HOST_2);
        assertEquals(List.of(), jobDirectoriesOf(weftrunPid[0]), "the job directory outlived its crashed launcher");
    }

    private static List<Path> jobDirectoriesOf(long launcherPid) throws IOException {
        try (Stream<Path> entries = Files.list(Path.of("/dev/shm"))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("weft-" + launcherPid + "-")).toList();
        }
    }

    @Test
    void aHostTheRemoteShellCannotReachFailsTheJobClearly() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--rsh", RSH, "-np", "2", "--host", "localhost," + PREFIX + "9",
                SelfAndRing.class.getName()).timeout(Duration.ofSeconds(60)).start();
        assertFalse(result.exitCode() == 0, result.output());
        assertTrue(result.stderr().contains("rank 1 on " + PREFIX + "9") && result.stderr().contains("exited with code"),
                result.output());
    }

    private static List<String> processesIn(String host) throws IOException, InterruptedException {
        Process pids = new ProcessBuilder("ip", "netns", "pids", host).redirectErrorStream(true).start();
        String out = new String(pids.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        pids.waitFor();
        return out.lines().filter(line -> !line.isBlank()).toList();
    }

    /** An agent that stays alive with the host and line in its arguments for the whole job, as ssh does. */
    private static Path agentLikeSsh() throws IOException {
        Path agent = Files.createTempFile("weft-rsh", ".sh");
        Files.writeString(agent, "#!/bin/sh\n'" + NETNS + "' exec \"$@\"\n");
        agent.toFile().setExecutable(true);
        return agent;
    }

    /** A process's command line as {@code ps} shows it; empty once it has ended. */
    private static String commandLine(ProcessHandle process) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline")).replace('\0', ' ');
        } catch (IOException gone) {
            return "";
        }
    }

    /**
     * Waits until the rank's JVM runs in {@code host}: the remote shell's line appears there before it has read the
     * secret and started its watch, and an agent killed that early leaves nothing on that host to clean up after.
     */
    private static void awaitRankIn(String host) {
        try {
            for (int i = 0; i < 300 && processesIn(host).stream().noneMatch(HostsJobTest::isRank); i++) {
                Thread.sleep(50);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code pid} is a JVM: the remote shell's line names the program too, before it execs java. */
    private static boolean isRank(String pid) {
        try {
            return Files.readString(Path.of("/proc", pid.trim(), "comm")).strip().equals("java");
        } catch (IOException gone) {
            return false;
        }
    }

    /** The command lines of {@code weftrun}'s descendants, as {@code ps} shows them, until it ends. */
    private static void collectCommandLines(Process weftrun, Set<String> lines) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (weftrun.isAlive() && System.nanoTime() < deadline) {
            weftrun.descendants().map(HostsJobTest::commandLine).filter(line -> !line.isEmpty()).forEach(lines::add);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void netns(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(NETNS.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(Map.of("WEFT_NETNS_PREFIX", PREFIX, "WEFT_NETNS_SUBNET", "10.78.0"));
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), "weft-netns " + String.join(" ", arguments) + ":\n" + out);
    }
}
