package org.weft.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job directory's own lifecycle, without rank processes. */
class JobDirectoryTest {
    @TempDir
    Path base;

    @Test
    void deleteRemovesTheDirectoryWithItsFilesOnceAndIsIdempotent() throws Exception {
        JobDirectory dir = JobDirectory.create(base, "weft-1-abc");
        assertEquals(base.resolve("weft-1-abc"), dir.path());
        Files.writeString(dir.path().resolve("shm-0"), "x");
        Files.createDirectory(dir.path().resolve("sub"));
        Files.writeString(dir.path().resolve("sub").resolve("f"), "y");
        assertTrue(dir.delete());
        assertFalse(Files.exists(dir.path()));
        assertTrue(dir.delete());
    }

    /**
     * The launcher's main thread and its shutdown hook may both delete the directory: the one that comes second
     * must not return before it is gone (the JVM halts when the hook returns).
     */
    @Test
    void aSecondDeleteReturnsOnlyOnceTheDirectoryIsGone() throws Exception {
        JobDirectory dir = JobDirectory.create(base, "weft-1-def");
        for (int i = 0; i < 2000; i++) {
            Files.writeString(dir.path().resolve("shm-" + i), "x");
        }
        Thread first = Thread.ofPlatform().start(dir::delete);
        while (first.isAlive() && fileCount(dir.path()) == 2000) {
            Thread.onSpinWait(); // until the first deletion is under way
        }
        assertTrue(dir.delete());
        assertFalse(Files.exists(dir.path()), "the second delete returned while the first was still deleting");
        first.join();
    }

    private static long fileCount(Path dir) {
        try (var files = Files.list(dir)) {
            return files.count();
        } catch (java.io.IOException e) {
            return -1; // gone already
        }
    }

    @Test
    void aJobIdWithoutThePrefixGetsIt() throws Exception {
        assertEquals("weft-job-7", JobDirectory.create(base, "job-7").path().getFileName().toString());
    }

    @Test
    void sweepRemovesOnlyDirectoriesOfLaunchersThatAreGone() throws Exception {
        long dead = deadPid();
        Path stale = Files.createDirectory(base.resolve("weft-" + dead + "-1f"));
        Files.writeString(stale.resolve("shm-0"), "left by a SIGKILLed launcher");
        Path live = Files.createDirectory(base.resolve("weft-" + ProcessHandle.current().pid() + "-2e"));
        Path other = Files.createDirectory(base.resolve("not-weft-" + dead + "-1f"));
        assertEquals(1, JobDirectory.sweepStale(base));
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(other));
    }

    /** A pid no process has now: one of a process that ran and ended. */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }
}
