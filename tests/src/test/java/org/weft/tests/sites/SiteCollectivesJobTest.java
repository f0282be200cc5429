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
    private static final Pattern BLOCKING = Pattern.compile(
            "(?m)^rank (\\d+): native collectives through (.+?)'s own: .*; blocking (\\d+) at once, (\\d+) after all"
                    + " members came$");

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
     * Correct programs that need a rank's progress while a collective waits ({@link ProgressDuringCollective}: rank
     * 0's large send received by rank 1 before it joins; rank 0's posted receive of what rank 1 sends before it
     * joins; rank 1's passive-target put into rank 0's window) end, as under Open MPI and MPICH, with every allreduce
     * run by the site's own MPI as its blocking call: rank 0, which has something pending each time in the last two
     * cases, goes in only after all members came, waiting with Weft's progress running; a rank with nothing pending
     * goes in at once (architecture.md, "Collectives by the site's own MPI"). A blocking call made at once by a rank
     * with something pending hung each of them.
     */
    @ParameterizedTest
    @CsvSource({"mpirun, Open MPI", MPICH + ", MPICH"})
    void byDefaultACollectiveInsideASiteKeepsProgressGoing(String launcher, String library)
            throws Exception {
        WeftrunJob.Result result = progressJob(launcher, 2, "send,recv,window");
        long[] waited = blockingCalls(result.stdout(), library, true);
        long[] atOnce = blockingCalls(result.stdout(), library, false);
        assertTrue(waited[0] >= 4, "rank 0 went in after all came only " + waited[0] + " times\n" + result.stdout());
        assertTrue(atOnce[1] >= 2, "rank 1 went in at once only " + atOnce[1] + " times\n" + result.stdout());
    }

    /**
     * A rank outside the communicator needs a member's progress ({@link ProgressDuringCollective}'s bystander: rank
     * 2 receives rank 0's large send before it sends rank 1 what rank 1 waits for before it joins the allreduce of
     * ranks 0 and 1): it ends under both MPIs, the pair's allreduces run natively.
     */
    @ParameterizedTest
    @CsvSource({"mpirun, Open MPI", MPICH + ", MPICH"})
    void aRankOutsideTheCommunicatorThatNeedsAMembersProgressGetsIt(String launcher, String library)
            throws Exception {
        WeftrunJob.Result result = progressJob(launcher, 3, "bystander");
        long[] waited = blockingCalls(result.stdout(), library, true);
        long[] atOnce = blockingCalls(result.stdout(), library, false);
        assertTrue(waited[0] + atOnce[0] >= 2 && waited[1] + atOnce[1] >= 2, "the pair's allreduces ran natively\n"
                + result.stdout());
    }

    /** {@link ProgressDuringCollective}'s {@code cases} in a site of {@code ranks} under {@code launcher}: all end. */
    private static WeftrunJob.Result progressJob(String launcher, int ranks, String cases) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:" + ranks, "--site-launcher",
                "a=" + launcher, ProgressDuringCollective.class.getName(), Integer.toString(1 << 20), cases)
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < ranks; r++) {
            assertTrue(result.stdout().contains("PROGRESS OK rank " + r + " sum 3"), result.output());
        }
        return result;
    }

    /** Per rank (index), the blocking native calls made after all members came ({@code waited}) or at once. */
    private static long[] blockingCalls(String stdout, String library, boolean waited) {
        Matcher m = BLOCKING.matcher(stdout);
        long[] calls = new long[8];
        while (m.find()) {
            if (m.group(2).equals(library)) {
                calls[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(waited ? 4 : 3));
            }
        }
        return calls;
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
