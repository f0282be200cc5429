package org.weft.tests.sites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.MethodMatrix;
import org.weft.tests.harness.SteadyStateAllocation;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.DieAfterInit;
import org.weft.tests.programs.InOneJob;
import org.weft.tests.programs.LargeMessages;
import org.weft.tests.programs.PersistentPingPong;
import org.weft.tests.programs.SelfAndRing;
import org.weft.tests.programs.ShowWorld;
import org.weft.tests.programs.SlowRing;
import org.weft.tests.programs.ThreadedPingPong;
import org.weft.tests.programs.TwoLevelCollectivesCheck;
import org.weft.tests.programs.TimedWildcardStream;

/**
 * {@code weftrun --site}: one job over several sites on this machine, each native site started by its own
 * {@code mpirun} (Open MPI must be on the PATH; without it these tests fail and say so). Unchanged MPI programs run;
 * traffic inside a site stays off TCP and traffic across sites goes over TCP; a rank dying in one site ends the
 * whole job with its code, naming it, and leaves nothing behind.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SiteJobTest {
    /** MPICH's launcher (Hydra) as Debian installs it beside Open MPI, which keeps the name mpirun. */
    private static final String MPICH = "/usr/bin/mpirun.mpich";

    @BeforeAll
    static void openMpiAndMpichAreHere() {
        assertTrue(Stream.of(System.getenv("PATH").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, "mpirun"))),
                "mpirun is not on the PATH: these tests need Open MPI (apt-get install openmpi-bin libopenmpi-dev;"
                        + " .ci/run installs it)");
        assertTrue(Files.isExecutable(Path.of(MPICH)), MPICH + " is missing: these tests need MPICH too (apt-get"
                + " install mpich; .ci/run installs it)");
    }

    /** Output tags of an mpirun (Open MPI's {@code --tag-output}, Hydra's {@code -prepend-rank}) carry global ranks. */
    @ParameterizedTest
    @ValueSource(strings = {"mpirun", MPICH})
    void everyRankLearnsItsGlobalRankSiteAndLocalSizeAndTaggedOutputUsesGlobalRanks(String launcherOfB)
            throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--tag-output", "--site", "a:1", "--site", "b:3",
                "--site-launcher", "a=weft", "--site-launcher", "b=" + launcherOfB, ShowWorld.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int rank = 0; rank < 4; rank++) {
            String site = rank == 0 ? "a" : "b";
            String line = "[1," + rank + "]<stdout>:WORLD rank " + rank + " of 4 site " + site + " local 4";
            assertTrue(result.stdout().contains(line), () -> "missing '" + line + "' in:\n" + result.output());
        }
    }

    /**
     * The steady-state ping-pong through nativempi allocates nothing per message on either rank (as over shm and tcp,
     * {@code SteadyStateAllocationTest}), under Open MPI (MPICH's: below).
     */
    @Test
    void aNativePingPongAllocatesNothingPerMessage() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:2", PersistentPingPong.class.getName())
                .timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        SteadyStateAllocation.assertNothingPerMessage(result, 2, "nativempi");
    }

    /**
     * Four threads per rank ping-pong at once through nativempi (one libmpi gate for senders and pollers), then the
     * same with 64–256 KiB messages (in the same job: one start instead of two): bulk transfers started at once by
     * pollers (on a CTS) and by the threads (when a receive matches a waiting RTS). They deadlocked when the
     * transfers had a lock of their own besides libmpi's gate, taken in either order.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mpirun", MPICH})
    void threadsPingPongSmallThenLargeMessagesAtOnceThroughNativeMpi(String launcher) throws Exception {
        // 4-10 s quiet a size; 8 threads spinning on 2 cores took over 60 s at load 30 (CI, before 4b8c6d0)
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2", "--site-launcher", "a=" + launcher,
                ThreadedPingPong.class.getName(), "small,large").timeout(Duration.ofSeconds(240)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("THREADED OK rank 0") && result.stdout().contains("THREADED OK rank 1"),
                result.output());
        assertEquals("nativempi", MethodMatrix.parse(result.stdout(), 2).method(0, 1), result.stdout());
    }

    /**
     * Two sites of two Weft's agents on this host (tcp between them): the blocking barrier, bcast, reduce and
     * allreduce of the world run each site's part on its shared segment — no message inside a site — and cross sites
     * once per site.
     */
    @Test
    void collectivesOfTwoLocalSitesOfWeftsAgentsRunEachSitesPartOnItsSegmentAndCrossOncePerSite()
            throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:2", "--site", "b:2", "--site-launcher", "a=weft",
                "--site-launcher", "b=weft", TwoLevelCollectivesCheck.class.getName())
                .timeout(Duration.ofSeconds(180)).start();
        assertEquals(0, result.exitCode(), result.output());
        TwoLevelCollectivesCheck.assertOncePerSite(result.stdout());
    }

    /**
     * Each site started by its own mpirun: Open MPI (through nativempi) inside, tcp across. In the same job (one start
     * instead of three): a wildcard stream from a same-site and two cross-site senders keeps each sender's order and
     * never stalls; and the blocking barrier, bcast, reduce and allreduce of the world run each site's part by its own
     * MPI (native collectives, the default) — no message inside a site — and cross sites once per site.
     */
    @Test
    void twoNativeSitesTalkNativeMpiInsideAndTcpAcross() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2", "--site", "b:2",
                InOneJob.class.getName(), SelfAndRing.class.getSimpleName(), "+",
                TimedWildcardStream.class.getSimpleName(), "2000", "1000", "+",
                TwoLevelCollectivesCheck.class.getSimpleName()).timeout(Duration.ofSeconds(180)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("sites: a = ranks 0-1, b = ranks 2-3"), result.stdout());
        MethodMatrix matrix = MethodMatrix.parse(result.stdout(), 4);
        matrix.assertRingOfTwoPairs("nativempi", "nativempi", "tcp");
        assertTrue(result.stdout().contains("STREAM OK 6000 messages"), result.output());
        assertEquals("nativempi", matrix.method(1, 0), "the same-site sender\n" + matrix);
        assertEquals("tcp", matrix.method(2, 0), "a cross-site sender\n" + matrix);
        TwoLevelCollectivesCheck.assertOncePerSite(result.stdout());
    }

    /**
     * Site a under Open MPI, site b under MPICH (its Hydra, its libmpich): each talks its own native MPI inside —
     * the library chosen by the launcher — and tcp across.
     */
    @Test
    void anOpenMpiSiteAndAnMpichSiteEachTalkTheirNativeMpiInside() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2", "--site", "b:2", "--site-launcher",
                "b=" + MPICH, SelfAndRing.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        MethodMatrix.parse(result.stdout(), 4).assertRingOfTwoPairs("nativempi", "nativempi", "tcp");
    }

    /**
     * Inside an MPICH site: the steady-state ping-pong allocates nothing per message (as under Open MPI, above), and,
     * in the same job, MPICH's path for large messages (bulk transfers on tags of their own, truncation) delivers
     * every byte.
     */
    @Test
    void anMpichSitesPingPongAllocatesNothingAndItsLargeMessagesArriveWhole() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2", "--site-launcher", "a=" + MPICH,
                InOneJob.class.getName(), PersistentPingPong.class.getSimpleName(), "+",
                LargeMessages.class.getSimpleName()).timeout(SteadyStateAllocation.TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        SteadyStateAllocation.assertNothingPerMessage(result, 2, "nativempi");
        assertTrue(result.stdout().contains("LARGE OK"), result.output());
        assertEquals("nativempi", MethodMatrix.parse(result.stdout(), 2).method(0, 1), result.stdout());
    }

    /** A site Weft's own agent starts has no native MPI: its ranks share memory through shm; still tcp across. */
    @Test
    void aSiteWithoutNativeMpiUsesShmInsideAndTcpAcross() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2", "--site", "b:2",
                "--site-launcher", "a=weft", SelfAndRing.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        MethodMatrix.parse(result.stdout(), 4).assertRingOfTwoPairs("shm", "nativempi", "tcp");
    }

    /**
     * Inside a site, the data of a large message between direct buffers goes by a bulk transfer (one MPI message from
     * the sender's buffer into the receiver's, no DATA RSRs); every byte arrives either way, truncation included.
     */
    @Test
    void largeMessagesInsideASiteGoInPlaceAndArriveWhole() throws Exception {
        WeftrunJob.Result inPlace = WeftrunJob.of("--report", "--site", "a:2", LargeMessages.class.getName()).start();
        WeftrunJob.Result fragments = WeftrunJob.of("--report", "--site", "a:2", "--param", "nativempi_bulk_min=0",
                LargeMessages.class.getName()).start();
        for (WeftrunJob.Result result : List.of(inPlace, fragments)) {
            assertEquals(0, result.exitCode(), result.output());
            assertTrue(result.stdout().contains("LARGE OK"), result.output());
        }
        long messages = Long.parseLong(find(inPlace.stdout(), "LARGE OK (\\d+) messages"));
        long[] bulk = sentByRankZero(inPlace.stdout(), "nativempi");
        long[] fragmented = sentByRankZero(fragments.stdout(), "nativempi");
        // in place, rank 0 sends an RTS per message and a CTS per echo it receives; in fragments, DATA RSRs besides
        assertTrue(bulk[0] <= 2 * messages && fragmented[0] > 2 * messages,
                "RSRs sent by rank 0: " + bulk[0] + " in place, " + fragmented[0] + " in fragments, for " + messages
                        + " messages\n" + inPlace.stdout());
        assertTrue(Math.abs(bulk[1] - fragmented[1]) < fragmented[1] / 50,
                "the bytes count the data moved in place: " + bulk[1] + " vs " + fragmented[1]);
    }

    /** RSRs and bytes rank 0 sent by {@code method}, from the {@code --report} table. */
    private static long[] sentByRankZero(String stdout, String method) {
        return new long[] {Long.parseLong(find(stdout, "(?m)^0\\s+" + method + "\\s+(\\d+)")),
                Long.parseLong(find(stdout, "(?m)^0\\s+" + method + "\\s+\\d+\\s+(\\d+)"))};
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> "no match for " + regex + " in:\n" + text);
        return m.group(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mpirun", "weft", MPICH})
    void aRankDyingInSiteBEndsTheWholeJobWithItsCodeAndLeavesNothingBehind(String launcherOfB) throws Exception {
        List<ProcessHandle> processes = new CopyOnWriteArrayList<>();
        long[] weftrunPid = new long[1];
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:2", "--site", "b:2", "--site-launcher",
                "b=" + launcherOfB, DieAfterInit.class.getName(), "3", "halt").timeout(Duration.ofSeconds(60))
                .run(weftrun -> {
                    weftrunPid[0] = weftrun.pid();
                    // site a: an mpirun and two JVMs; b: the same, or only the JVMs (weft), or Hydra's mpiexec,
                    // its proxy and the JVMs
                    remember(weftrun, processes, switch (launcherOfB) {
                        case "mpirun" -> 6;
                        case "weft" -> 5;
                        default -> 7;
                    });
                });
        assertEquals(3, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("rank 3") && result.stderr().contains("site b"),
                () -> "the message names the rank and its site:\n" + result.output());
        WeftrunJob.assertEndedSoonAfter(result, "RANK 3 DIES");
        assertAllGone(processes);
        assertEquals(List.of(), jobDirectoriesOf(weftrunPid[0]), "the job directory is deleted");
    }

    @Test
    void aTimeoutKillsTheRanksOfAnMpirunSiteToo() throws Exception {
        List<ProcessHandle> processes = new CopyOnWriteArrayList<>();
        WeftrunJob.Result result = WeftrunJob.of("--timeout", "4", "--site", "a:2", "--site", "b:1",
                SlowRing.class.getName(), "100000").timeout(Duration.ofSeconds(60))
                .run(weftrun -> remember(weftrun, processes, 5)); // mpirun + 2 JVMs, mpirun + 1 JVM
        assertEquals(124, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("--timeout"), result.output());
        assertAllGone(processes);
    }

    @Test
    void badSiteSyntaxIsAClearUsageError() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--site", "a:two", ShowWorld.class.getName()).start();
        assertEquals(2, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("--site a:two: NP must be a whole number"), result.output());
        WeftrunJob.Result mismatch = WeftrunJob.of("-np", "3", "--site", "a:2", "--site", "b:2",
                ShowWorld.class.getName()).start();
        assertNotEquals(0, mismatch.exitCode(), mismatch.output());
        assertTrue(mismatch.stderr().contains("does not match the 4 ranks"), mismatch.output());
    }

    /** Remembers the job's mpiruns and JVMs while they live (up to 5 s), to check afterwards that none is left. */
    private static void remember(Process weftrun, List<ProcessHandle> processes, int expected) {
        for (int i = 0; i < 100 && processes.size() < expected; i++) {
            weftrun.descendants().filter(p -> !processes.contains(p)).forEach(processes::add);
            sleep(50);
        }
    }

    private static void assertAllGone(List<ProcessHandle> processes) throws IOException {
        assertFalse(processes.isEmpty(), "the job started processes");
        for (ProcessHandle process : processes) {
            for (int i = 0; i < 50 && process.isAlive(); i++) {
                sleep(100);
            }
            assertFalse(process.isAlive(), "process " + process.pid() + " " + process.info().command().orElse("")
                    + " outlived its job");
        }
        assertEquals(List.of(), openMpiSessionDirectoriesOf(processes), "Open MPI's session directories of the"
                + " job's mpiruns are removed (an mpirun killed without grace leaves them in the temporary directory)");
    }

    /** Open MPI 4.1's session directories of any of {@code processes}: TMP/ompi.HOST.UID/pid.PID. */
    private static List<Path> openMpiSessionDirectoriesOf(List<ProcessHandle> processes) throws IOException {
        Path tmp = Path.of(System.getenv().getOrDefault("TMPDIR", "/tmp"));
        try (Stream<Path> tops = Files.list(tmp)) {
            return tops.filter(p -> p.getFileName().toString().startsWith("ompi."))
                    .flatMap(top -> processes.stream().map(process -> top.resolve("pid." + process.pid())))
                    .filter(Files::exists).toList();
        }
    }

    private static List<Path> jobDirectoriesOf(long launcherPid) throws IOException {
        try (Stream<Path> entries = Files.list(Path.of("/dev/shm"))) {
            return entries.filter(p -> p.getFileName().toString().startsWith("weft-" + launcherPid + "-")).toList();
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
