package org.weft.launcher.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenMpiSessionDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void theKilledMpirunsSessionDirectoryGoesWithWhatItHoldsAndOthersStay() throws IOException {
        Path top = Files.createDirectories(tmp.resolve("ompi.vm.0"));
        Path killed = Files.createDirectories(top.resolve("pid.4242").resolve("1").resolve("0"));
        Files.writeString(killed.resolve("debugger-attach-fifo"), "x");
        Path other = Files.createDirectories(top.resolve("pid.42421"));
        Path unrelated = Files.createDirectories(tmp.resolve("elsewhere").resolve("pid.4242"));

        List<Path> removed = OpenMpiSessionDirectory.removeOf(4242, tmp);

        assertEquals(List.of(top.resolve("pid.4242")), removed);
        assertFalse(Files.exists(top.resolve("pid.4242")));
        assertTrue(Files.isDirectory(other), "another mpirun's directory stays");
        assertTrue(Files.isDirectory(unrelated), "only Open MPI's ompi.* directories are looked into");
        assertTrue(Files.isDirectory(top), "the per-user directory stays for the other mpiruns");
    }

    /**
     * A directory whose pid is dead, or alive but no Open MPI daemon (the pid was reused), goes; a running mpirun's
     * (a process named {@code mpirun}) stays.
     */
    @Test
    void theSweepRemovesTheDirectoriesOfDeadAndReusedPidsAndKeepsARunningMpirunsOne() throws Exception {
        Path top = Files.createDirectories(tmp.resolve("ompi.vm.0"));
        Path mpirun = Files.createSymbolicLink(tmp.resolve("mpirun"), Path.of("/bin/sleep"));
        Process running = new ProcessBuilder(mpirun.toString(), "30").start();
        Process ended = new ProcessBuilder("/bin/true").start();
        ended.waitFor();
        try {
            Path live = Files.createDirectories(top.resolve("pid." + running.pid()));
            Path dead = Files.createDirectories(top.resolve("pid." + ended.pid()).resolve("1"));
            Path reused = Files.createDirectories(top.resolve("pid." + ProcessHandle.current().pid()));
            Path notASession = Files.createDirectories(top.resolve("jf.0"));
            Path noPid = Files.createDirectories(top.resolve("pid.99999999999999999999"));

            List<Path> removed = OpenMpiSessionDirectory.sweepStale(tmp);

            assertEquals(2, removed.size(), removed.toString());
            assertFalse(Files.exists(dead.getParent()), "a dead mpirun's directory goes");
            assertFalse(Files.exists(reused), "a pid that is now another program's is stale");
            assertTrue(Files.isDirectory(live), "a running mpirun's directory stays");
            assertTrue(Files.isDirectory(notASession), "only pid.N directories are judged");
            assertTrue(Files.isDirectory(noPid), "digits no pid has: not ours to judge, and no failure");
        } finally {
            running.destroyForcibly();
        }
    }

    @Test
    void nothingLeftIsNothingToDo() {
        assertEquals(List.of(), OpenMpiSessionDirectory.removeOf(4242, tmp));
        assertEquals(List.of(), OpenMpiSessionDirectory.removeOf(4242, tmp.resolve("missing")));
        assertEquals(List.of(), OpenMpiSessionDirectory.sweepStale(tmp));
        assertEquals(List.of(), OpenMpiSessionDirectory.sweepStale(tmp.resolve("missing")));
    }
}
