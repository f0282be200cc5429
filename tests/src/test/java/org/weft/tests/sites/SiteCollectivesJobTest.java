package org.weft.tests.sites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.SteadyStateAllocation;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ProgressDuringCollective;
import org.weft.tests.programs.RepeatedCollectives;
import org.weft.tests.programs.SharedCollectivesCheck;
import org.weft.tests.programs.SiteCollectivesCheck;

/**
 * A communicator wholly inside one native site runs its blocking collectives as the site's own MPI's (Open MPI's or
 * MPICH's, on a native communicator of its members): the results equal a sequential computation for every collective,
 * predefined operation and type, in place and not, on the world, a duplicate, splits and a reordered subgroup, with
 * no RSR sent and the native calls counted in {@code --report}; a communicator spanning two sites keeps Weft's
 * schedules; an error of the native call reaches the program with its MPI error class; repeated calls on the same
 * arrays allocate nothing; a rank's progress goes on while a native collective waits. On by default
 * ({@code nativempi_collectives=1}).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SiteCollectivesJobTest {
    private static final String MPICH = "/usr/bin/mpirun.mpich";
    private static final Pattern NATIVE_LINE = Pattern.compile(
            "(?m)^rank (\\d+): native collectives through (.+?)'s own: (\\d+) communicators?, (\\d+) calls");

    @ParameterizedTest
    @CsvSource({"mpirun, 4, Open MPI", MPICH + ", 2, MPICH"})
    void collectivesInsideANativeSiteRunAsItsOwnMpisAndGiveTheSequentialResults(String launcher, int ranks,
                                                                                String library) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:" + ranks, "--site-launcher",
                "a=" + launcher, SharedCollectivesCheck.class.getName(), "shared")
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < ranks; r++) {
            assertTrue(result.stdout().contains("SHARED-COLLECTIVES OK rank " + r), result.output());
        }
        List<long[]> lines = nativeLines(result.stdout(), library);
        assertEquals(ranks, lines.size(), "one native-collectives line per rank\n" + result.stdout());
        for (long[] line : lines) { // 8000 small collectives and the checks' own, on world, dup, splits, subgroup
            assertTrue(line[0] >= 4 && line[1] >= 8000, "rank " + line[2] + ": " + line[0] + " communicators, "
                    + line[1] + " native calls\n" + result.stdout());
        }
    }

    /**
     * Site a under Open MPI, site b under MPICH: each site's communicator runs natively (reduce_scatter_block and
     * allreduce checked; a gather's too-long block is {@code ERR_TRUNCATE} from Open MPI and dropped by MPICH 4.0,
     * whose nonblocking gather drops the error), and the world across the two runs in two levels: each site's part of
     * its allreduce by the site's own MPI, the leaders across by Weft's.
     */
    @Test
    void eachSitesCommunicatorRunsNativelyAndTheWorldAcrossSitesRunsEachSitesPartNatively() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2", "--site", "b:2", "--site-launcher",
                "b=" + MPICH, SiteCollectivesCheck.class.getName(), "2").timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < 4; r++) {
            assertTrue(result.stdout().contains("SITE-COLLECTIVES OK rank " + r), result.output());
        }
        assertEquals(2, nativeLines(result.stdout(), "Open MPI").size(), result.stdout());
        assertEquals(2, nativeLines(result.stdout(), "MPICH").size(), result.stdout());
    }

    /**
     * Three ranks under MPICH (whose waits spin without yielding: more ranks than cores make its collectives slow,
     * so the long check above runs at 2): reduce_scatter_block and allreduce natively, with the right results.
     */
    @Test
    void threeRanksOfAnMpichSiteRunTheirCollectivesNatively() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:3", "--site-launcher", "a=" + MPICH,
                SiteCollectivesCheck.class.getName(), "3").timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < 3; r++) {
            assertTrue(result.stdout().contains("SITE-COLLECTIVES OK rank " + r), result.output());
        }
        assertEquals(3, nativeLines(result.stdout(), "MPICH").size(), result.stdout());
    }

    /** A repeated allreduce on the same arrays allocates nothing per call through the native MPI either. */
    @Test
    void aRepeatedNativeAllReduceAllocatesNothing() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:2",
                RepeatedCollectives.class.getName(), "allreduce").timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        SteadyStateAllocation.assertNothingPerMessage(result, 2, "a native allreduce (per call)");
    }

    /**
     * A correct program that needs this rank's progress while a collective waits (rank 0's large send, received by
     * rank 1 before it joins the allreduce) ends, as under Open MPI, with the allreduce run by the site's own MPI: its
     * nonblocking form, waited for with Weft's progress running (a blocking native call, which holds libmpi's lock
     * while it waits, hung it; architecture.md, "Collectives by the site's own MPI").
     */
    @Test
    void byDefaultACollectiveInsideASiteKeepsProgressGoing() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2",
                ProgressDuringCollective.class.getName(), Integer.toString(1 << 20))
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < 2; r++) {
            assertTrue(result.stdout().contains("PROGRESS OK rank " + r + " sum 3"), result.output());
        }
        List<long[]> lines = nativeLines(result.stdout(), "Open MPI");
        assertEquals(2, lines.size(), "the allreduce ran natively on both ranks\n" + result.stdout());
        for (long[] line : lines) {
            assertTrue(line[0] == 1 && line[1] >= 1, "rank " + line[2] + ": " + line[0] + " communicators, "
                    + line[1] + " native calls\n" + result.stdout());
        }
    }

    /** Per rank whose report line names {@code library}: communicators made, native calls, the rank. */
    private static List<long[]> nativeLines(String stdout, String library) {
        Matcher m = NATIVE_LINE.matcher(stdout);
        List<long[]> lines = new java.util.ArrayList<>();
        while (m.find()) {
            if (m.group(2).equals(library)) {
                lines.add(new long[] {Long.parseLong(m.group(3)), Long.parseLong(m.group(4)),
                        Long.parseLong(m.group(1))});
            }
        }
        return lines;
    }
}
