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

/** {@code weftrun --bind-to core}: every thread of each rank's JVM on a core of its own, as mpirun binds. */
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
    void withoutBindToRanksRunWhereverTheyMay() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", ShowBinding.class.getName())
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        String all = "0-" + (Runtime.getRuntime().availableProcessors() - 1);
        assertTrue(result.stdout().contains("RANK 0 CPUS " + all) || Runtime.getRuntime().availableProcessors() == 1,
                result.stdout());
    }
}
