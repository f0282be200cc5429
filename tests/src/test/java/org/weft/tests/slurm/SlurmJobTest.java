package org.weft.tests.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.launcher.cli.WeftRun;
import org.weft.tests.harness.MethodMatrix;
import org.weft.tests.harness.SlurmCluster;
import org.weft.tests.harness.ThreadDumps;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.SelfAndRing;
import org.weft.tests.programs.ShowBinding;
import org.weft.tests.programs.WaitAfterInit;

/**
 * {@code weftrun} inside allocations of a real SLURM (slurmctld, two slurmd nodes of 2 CPUs, munge;
 * {@link SlurmCluster}): it takes the nodes and slots from SLURM's environment, so no {@code -np} and no host is
 * given, and starts ranks on other nodes with {@code srun}; a job SLURM cancels leaves no rank behind.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlurmJobTest {
    private static Path dir;
    private static SlurmCluster cluster;

    @BeforeAll
    static void startTheCluster() throws Exception {
        dir = Files.createTempDirectory("weft-slurm-test");
        cluster = SlurmCluster.start(dir, 2, 2);
    }

    @AfterAll
    static void stopTheCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** A batch script on sl-n1 runs two ranks there itself and two on sl-n2 through srun; they meet over tcp. */
    @Test
    void anSbatchScriptCallingWeftrunRunsOnTheAllocationsNodes() throws Exception {
        Path script = script("batch", WeftrunJob.of("--report", SelfAndRing.class.getName()).command());
        Path out = dir.resolve("batch.out");
        SlurmCluster.Output sbatch = cluster.command("sbatch", "--wait", "-N2", "-n4", "-o", out.toString(),
                "--chdir", dir.toString(), script.toString());
        String output = Files.exists(out) ? Files.readString(out) : "";
        assertEquals(0, sbatch.status(), sbatch.text() + output);
        assertTrue(output.contains("weft report: 4 ranks"), "-np is the allocation's 4 tasks:\n" + output);
        MethodMatrix.parse(output, 4).assertRingOfTwoPairs("shm", "shm", "tcp");
        assertTrue(output.contains("rank 0 on sl-n1") && output.contains("rank 3 on sl-n2"), output);
    }

    /** salloc runs weftrun here, outside the nodes: every rank starts through srun, 2 on sl-n1 and 1 on sl-n2. */
    @Test
    void weftrunUnderSallocStartsEveryRankWithSrun() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--display-map", "--report", SelfAndRing.class.getName())
                .wrappedIn("salloc", "-N2", "-n3").environment(cluster.environment())
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("rank 0 on sl-n1\n  rank 1 on sl-n1\n  rank 2 on sl-n2"),
                result.stdout());
        assertTrue(result.stdout().contains("weft report: 3 ranks"), result.stdout());
    }

    /**
     * The cluster binds tasks to cores (task/affinity, TaskPluginParam=cores, as many do): each rank's one-task srun
     * step would be bound to the node's first core, both ranks to the same one, unless srun is told not to bind.
     */
    @Test
    void ranksStartedWithSrunAreNotAllBoundToTheNodesFirstCore() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of(ShowBinding.class.getName()).wrappedIn("salloc", "-N1", "-n2")
                .environment(cluster.environment()).timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        // the job fills its node, so each rank binds its MPI thread alone (weftrun's default, bind_to=auto): the MPI
        // threads on different CPUs, every rank's other threads free to run on both
        for (int rank = 0; rank < 2; rank++) {
            String prefix = "RANK " + rank + " CPUS ";
            assertTrue(result.stdout().lines().anyMatch(line -> line.startsWith(prefix)
                    && List.of(line.substring(prefix.length()).split(" ")).contains("0-1")),
                    "rank " + rank + "'s other threads may run on both CPUs of its node: " + result.stdout());
        }
        assertTrue(result.stdout().contains("RANK 0 MAIN 0\n") && result.stdout().contains("RANK 1 MAIN 1\n"),
                "the MPI threads on a CPU each, not all on the first: " + result.stdout());
        assertTrue(!result.stderr().contains("cpu binding"), result.stderr());
    }

    /** scancel ends the batch script, weftrun and the srun steps; no rank's JVM is left on either node. */
    @Test
    void aCancelledBatchJobLeavesNoRankBehind() throws Exception {
        String marker = "cancel-batch-" + System.nanoTime();
        Path script = script("cancel", WeftrunJob.of(WaitAfterInit.class.getName(), "60", marker).command());
        Path out = dir.resolve("cancel.out");
        SlurmCluster.Output sbatch = cluster.command("sbatch", "--parsable", "-N2", "-n4", "-o", out.toString(),
                "--chdir", dir.toString(), script.toString());
        assertEquals(0, sbatch.status(), sbatch.text());
        String jobId = sbatch.text().strip();
        try {
            awaitRanksWaiting(out, 4, marker);
            assertEquals(4, processesMarked(marker).size(), "four ranks run: " + processesMarked(marker));
        } finally {
            assertEquals(0, cluster.command("scancel", jobId).status());
        }
        awaitNothingLeft(marker, Duration.ofSeconds(30));
        assertEquals(List.of(), processesMarked(marker), "a rank outlived its cancelled job");
        assertEquals(List.of(), cluster.sharedMemoryLeftovers("weft-"), "job directories outlived the job");
    }

    /**
     * scancel of an allocation whose weftrun runs outside it (salloc): SLURM ends the ranks' steps, weftrun sees its
     * ranks end, says so and exits; nothing of the job is left.
     */
    @Test
    void aCancelledSallocEndsWeftrunAndItsRanks() throws Exception {
        String marker = "cancel-salloc-" + System.nanoTime();
        int[] running = new int[1];
        WeftrunJob.Result result = WeftrunJob.of(WaitAfterInit.class.getName(), "60", marker)
                .wrappedIn("salloc", "-N2", "-n2", "-J", marker).environment(cluster.environment())
                .timeout(Duration.ofSeconds(60)).run(salloc -> {
                    try {
                        awaitProcesses(marker, 2);
                        running[0] = processesMarked(marker).size();
                        cluster.command("scancel", "-n", marker);
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
        assertEquals(2, running[0], "both ranks ran before the allocation was cancelled:\n" + result.output());
        assertTrue(result.exitCode() != 0 && result.stderr().contains("aborting the job"), result.output());
        awaitNothingLeft(marker, Duration.ofSeconds(30));
        assertEquals(List.of(), processesMarked(marker), "a rank outlived its cancelled allocation");
        assertEquals(List.of(), cluster.sharedMemoryLeftovers("weft-"), "job directories outlived the job");
    }

    /** An executable script running {@code command}, each word quoted for the shell. */
    private static Path script(String name, List<String> command) throws IOException {
        String line = command.stream().map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        Path script = dir.resolve(name + ".sh");
        Files.writeString(script, "#!/bin/sh\nexec " + line + "\n");
        script.toFile().setExecutable(true);
        return script;
    }

    private static void awaitRanksWaiting(Path out, int ranks, String marker)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (countWaiting(out) < ranks) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the ranks did not all start within 60 s:\n"
                        + (Files.exists(out) ? Files.readString(out) : "(no output)") + "\n" + dumps(marker));
            }
            Thread.sleep(100);
        }
    }

    private static long countWaiting(Path out) throws IOException {
        return Files.exists(out) ? Files.readAllLines(out).stream().filter(l -> l.endsWith(" WAITING")).count() : 0;
    }

    private static void awaitProcesses(String marker, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (processesMarked(marker).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    /**
     * Waits (bounded) until no rank is left and no node holds a job directory: a node's directory goes a moment
     * after its rank, when the remote line's watch, polling once a second, sees the rank gone or gets SIGTERM.
     */
    private static void awaitNothingLeft(String marker, Duration limit) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + limit.toNanos();
        while ((!processesMarked(marker).isEmpty() || !cluster.sharedMemoryLeftovers("weft-").isEmpty())
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    /** The ranks' JVMs on this machine, any node, whose command line carries {@code marker}. */
    private static List<Long> processesMarked(String marker) {
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(p -> isRankMarked(p.pid(), marker)).map(ProcessHandle::pid).toList();
        }
    }

    /** Whether {@code pid} is a JVM running {@link WaitAfterInit} (a rank, not weftrun) with {@code marker}. */
    private static boolean isRankMarked(long pid, String marker) {
        try {
            List<String> words = List.of(Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"))
                    .split("\0"));
            return words.getFirst().endsWith("/java") && words.contains(marker)
                    && words.contains(WaitAfterInit.class.getName()) && !words.contains(WeftRun.class.getName());
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** Thread dumps of the job's ranks. */
    private static String dumps(String marker) {
        StringBuilder dumps = new StringBuilder();
        for (long pid : processesMarked(marker)) {
            dumps.append("== rank ").append(pid).append('\n').append(ThreadDumps.ofProcess(pid));
        }
        return dumps.toString();
    }
}
