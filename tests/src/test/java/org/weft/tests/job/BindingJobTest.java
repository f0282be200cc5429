package org.weft.tests.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ShowBinding;

/**
 * {@code weftrun --bind-to core}: every thread of each rank's JVM on a core of its own, as mpirun binds; without it,
 * the MPI thread alone (as many ranks as CPUs); {@code --bind-to none}: nothing bound.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BindingJobTest {
    private static final Pattern RANK_CPUS = Pattern.compile("RANK (\\d+) CPUS (.*)");

    @Test
    void eachRankOfAHostIsBoundToACoreOfItsOwnAndSaysWhere() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        int np = Math.min(cores, 2);
        WeftrunJob.Result result = WeftrunJob.of("-np", Integer.toString(np), "--bind-to", "core",
                "--report-bindings", ShowBinding.class.getName()).timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        Set<String> cpus = new HashSet<>();
        Matcher matcher = RANK_CPUS.matcher(result.stdout());
        while (matcher.find()) {
            String lists = matcher.group(2);
            assertTrue(lists.matches("\\d+"), "every thread of rank " + matcher.group(1) + " on one CPU: " + lists);
            cpus.add(lists);
        }
        assertEquals(np, cpus.size(), "a CPU for each rank: " + result.stdout());
        for (int rank = 0; rank < np; rank++) {
            assertTrue(result.stderr().matches("(?s).*\\] MCW rank " + rank + " bound to core \\d+ \\(CPUs .*"),
                    result.stderr());
        }
    }

    @Test
    void withoutBindToOnAHostTheJobFillsEachMpiThreadTakesACoreOfItsOwnAndOtherThreadsStayFree() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        WeftrunJob.Result result = WeftrunJob.of("-np", Integer.toString(Math.min(cpus, 4)), "--report-bindings", ShowBinding.class.getName())
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        String all = "0-" + (cpus - 1);
        String mainOf0 = listOf(result.stdout(), "RANK 0 MAIN ");
        String mainOf1 = listOf(result.stdout(), "RANK 1 MAIN ");
        if (cpus == 1 || cpus > 4) { // one CPU: nothing to choose; more: the job does not fill the host
            assertEquals(mainOf0, listOf(result.stdout(), "RANK 0 CPUS "), "nothing bound: " + result.stdout());
            return;
        }
        assertTrue(!mainOf0.equals(all) && !mainOf1.equals(all) && !mainOf0.equals(mainOf1),
                "each MPI thread on a core of its own: " + result.stdout());
        assertTrue(result.stdout().matches("(?s).*RANK 0 CPUS .*" + all + ".*"), "its other threads free: "
                + result.stdout());
        assertTrue(result.stderr().contains("MCW rank 1 has its MPI thread bound to core"), result.stderr());
    }

    @Test
    void bindToNoneLeavesEveryThreadFree() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", "--bind-to", "none", ShowBinding.class.getName())
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        String all = "0-" + (Runtime.getRuntime().availableProcessors() - 1);
        assertTrue(result.stdout().contains("RANK 0 CPUS " + all) || Runtime.getRuntime().availableProcessors() == 1,
                result.stdout());
        assertEquals(listOf(result.stdout(), "RANK 1 CPUS "), listOf(result.stdout(), "RANK 1 MAIN "), result.stdout());
    }

    private static String listOf(String stdout, String prefix) {
        return stdout.lines().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + prefix + "in " + stdout));
    }
}
