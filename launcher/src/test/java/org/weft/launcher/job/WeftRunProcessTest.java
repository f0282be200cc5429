package org.weft.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.weft.launcher.cli.WeftRun;
import org.weft.launcher.testapps.TestRank;

/**
 * weftrun with real rank JVMs (the test's own class path is the ranks' runtime class path, so {@link TestRank}
 * is found without -cp). Kept few: each starts two or three JVMs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WeftRunProcessTest {
    /** Rank JVMs that start fast: these programs are tiny. */
    private static final String[] FAST_JVM = {"-J", "-XX:TieredStopAtLevel=1", "-J", "-XX:+UseSerialGC",
            "-J", "-Xshare:auto"};

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int weftrun(String stdin, String... args) {
        List<String> all = new ArrayList<>(List.of(FAST_JVM));
        all.addAll(List.of(args));
        return WeftRun.execute(all.toArray(String[]::new),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @AfterEach
    void noRankIsLeftBehind() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive)
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList());
    }

    @Test
    void allRanksExitingZeroAfterFinalizeGiveZero() {
        assertEquals(0, weftrun("", "-np", "3", TestRank.class.getName(), "ok"), err());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(out().contains("rank " + rank + " gathered 3 cards"), out());
        }
        assertEquals("", err());
    }

    @Test
    void aRankThatHaltsEndsTheJobWithItsStatusAndIsNamed() {
        long start = System.nanoTime();
        int status = weftrun("", "-np", "3", TestRank.class.getName(), "halt", "2", "3");
        assertEquals(3, status, err());
        assertTrue(err().matches("(?s).*weftrun: rank 2 \\(pid \\d+\\) exited with code 3; aborting the job.*"),
                err());
        // 3 JVMs start in 1-3 s quiet and up to 20 s at load 30
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(40), "the job ended within seconds");
    }

    @Test
    void abortPropagatesItsCodeAndMessage() {
        assertEquals(5, weftrun("", "-np", "2", TestRank.class.getName(), "abort", "1", "5"), err());
        assertTrue(err().contains("weftrun: rank 1 aborted the job with code 5: test abort from rank 1"), err());
    }

    @Test
    void exitingZeroWithoutFinalizeIsAFailure() {
        assertEquals(1, weftrun("", "-np", "2", TestRank.class.getName(), "nofinalize", "1"), err());
        assertTrue(err().matches("(?s).*rank 1 \\(pid \\d+\\) exited without calling MPI_Finalize.*"), err());
    }

    @Test
    void aRankThatNeverRegistersWhileOthersDidIsAFailureNotAHang() {
        assertEquals(1, weftrun("", "-np", "2", TestRank.class.getName(), "skip", "0"), err());
        assertTrue(err().matches("(?s).*rank 0 \\(pid \\d+\\) exited without calling MPI_Init while other ranks did.*"),
                err());
    }

    @Test
    void timeoutKillsTheJob() {
        long start = System.nanoTime();
        assertEquals(Job.TIMEOUT_STATUS, weftrun("", "-np", "2", "--timeout", "2", TestRank.class.getName(), "sleep"));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        // the limit, then the kill's graces (1 s, then SIGTERM); far below the ranks' 60 s sleep even at load 30
        assertTrue(seconds >= 2 && seconds < 40, seconds + " s");
        assertTrue(err().contains("weftrun: the job exceeded its time limit of 2 s (--timeout); killing it"), err());
    }

    @Test
    void tagOutputPrefixesEachLineAndStdinReachesRankZero() {
        assertEquals(0, weftrun("hello there\n", "-np", "2", "--tag-output", TestRank.class.getName(), "echo",
                "-np", "--tag-output"), err());
        String out = out();
        assertTrue(out.contains("[1,0]<stdout>:rank 0 args -np --tag-output\n"), out);
        assertTrue(out.contains("[1,1]<stdout>:rank 1 args -np --tag-output\n"), out);
        assertTrue(out.contains("[1,1]<stdout>:rank 1 last line without newline\n"), out);
        assertTrue(out.contains("[1,0]<stdout>:rank 0 read hello there\n"), out);
        assertTrue(err().contains("[1,1]<stderr>:rank 1 on stderr\n"), err());
        for (String line : out.split("\n")) {
            assertTrue(line.matches("\\[1,[01]]<stdout>:.*"), "every line is tagged: " + line);
        }
    }

    /** Open MPI's layout: DIR/1/rank.N/stdout and stderr, the lines untagged, also on the terminal unless nocopy. */
    @Test
    void outputFilenameWritesEachRanksStreamsToFilesOfItsOwn(@TempDir Path dir) throws IOException {
        assertEquals(0, weftrun("in\n", "-np", "2", "--output-filename", dir.toString(),
                TestRank.class.getName(), "echo", "x"), err());
        assertEquals("rank 1 args x\nrank 1 last line without newline", Files.readString(
                dir.resolve("1/rank.1/stdout")));
        assertEquals("rank 0 on stderr\n", Files.readString(dir.resolve("1/rank.0/stderr")));
        assertTrue(Files.readString(dir.resolve("1/rank.0/stdout")).endsWith("rank 0 read in\n"));
        assertTrue(out().contains("rank 1 args x\n"), "and to the terminal: " + out());
        out.reset();
        assertEquals(0, weftrun("", "-np", "1", "--output-filename", dir + ":nocopy", TestRank.class.getName(),
                "echo", "y"), err());
        assertEquals("", out(), "nocopy: the files only");
        assertTrue(Files.readString(dir.resolve("1/rank.0/stdout")).startsWith("rank 0 args y\n"));
    }

    /** -q keeps weftrun's warnings to itself, not the ranks' output nor the reason a job failed. */
    @Test
    void quietSilencesWarningsButNotFailures() {
        assertEquals(0, weftrun("", "-q", "-np", "1", "--bind-to", "socket", "-x", "WEFT_NOT_SET_ANYWHERE",
                TestRank.class.getName(), "echo"), err());
        assertEquals("rank 0 on stderr\n", err(), "no warning, the rank's own line");
        err.reset();
        assertEquals(3, weftrun("", "-q", "-np", "2", TestRank.class.getName(), "halt", "1", "3"));
        assertTrue(err().contains("rank 1 (pid"), err());
    }

    @Test
    void theJobDirectoryIsGoneAfterANormalJobAndAfterOneWhoseRankWasKilled() {
        assertEquals(0, weftrun("", "-np", "2", TestRank.class.getName(), "jobdir"), err());
        List<Path> dirs = jobDirectoriesIn(out());
        assertEquals(2, dirs.size(), out());
        assertEquals(dirs.get(0), dirs.get(1), "one directory per job, shared by its ranks");
        assertTrue(dirs.get(0).getFileName().toString().startsWith("weft-"), dirs.toString());
        assertTrue(!Files.exists(dirs.get(0)), dirs.get(0) + " left behind");

        out.reset();
        int status = weftrun("", "-np", "2", TestRank.class.getName(), "jobdir", "1");
        assertEquals(128 + 9, status, err());
        assertTrue(err().contains("rank 1 (pid "), err());
        List<Path> killed = jobDirectoriesIn(out());
        assertTrue(!killed.isEmpty(), out());
        assertTrue(!killed.getFirst().equals(dirs.getFirst()), "a fresh directory per job");
        assertTrue(!Files.exists(killed.getFirst()), killed.getFirst() + " left behind after a rank was killed");
    }

    private static List<Path> jobDirectoriesIn(String output) {
        List<Path> dirs = new ArrayList<>();
        Matcher m = Pattern.compile("rank \\d+ wrote (\\S+)").matcher(output);
        while (m.find()) {
            dirs.add(Path.of(m.group(1)).getParent());
        }
        return dirs;
    }

    @Test
    void killingTheLauncherLeavesNoRankBehind() throws Exception {
        for (boolean forcibly : new boolean[] {false, true}) { // SIGTERM: shutdown hook; SIGKILL: rank watchers
            Process launcher = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), WeftRun.class.getName(), FAST_JVM[0], FAST_JVM[1],
                    "-np", "2", TestRank.class.getName(), "linger").redirectErrorStream(true).start();
            BufferedReader lines = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
                    StandardCharsets.UTF_8));
            int gathered = 0;
            while (gathered < 2) {
                String line = lines.readLine();
                assertTrue(line != null, "launcher ended early");
                gathered += line.contains("gathered") ? 1 : 0;
            }
            List<ProcessHandle> ranks = launcher.descendants().toList();
            assertEquals(2, ranks.size(), ranks.toString());
            if (forcibly) {
                launcher.destroyForcibly();
            } else {
                launcher.destroy();
            }
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS));
            for (ProcessHandle rank : ranks) {
                assertTrue(rank.onExit().completeOnTimeout(null, 10, TimeUnit.SECONDS).get() != null
                        && !rank.isAlive(), "rank " + rank.pid() + " ended after the launcher was killed");
            }
            InputStream rest = launcher.getInputStream();
            rest.close();
            // SIGKILL leaves the job directory behind: the next launcher on this host sweeps it (its pid is dead).
            JobDirectory.sweepStale(JobDirectory.defaultBase());
            try (var left = Files.list(JobDirectory.defaultBase())) {
                String prefix = "weft-" + launcher.pid() + "-";
                assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith(prefix)).toList());
            }
        }
    }
}
