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
    @TempDir
    Path shm;

    @Test
    void theKilledMpirunsSessionDirectoryGoesWithWhatItHoldsAndOthersStay() throws IOException {
        Path top = Files.createDirectories(tmp.resolve("ompi.vm.0"));
        Path killed = Files.createDirectories(top.resolve("pid.4242").resolve("1").resolve("0"));
        Files.writeString(killed.resolve("debugger-attach-fifo"), "x");
        Path other = Files.createDirectories(top.resolve("pid.42421"));
        Path unrelated = Files.createDirectories(tmp.resolve("elsewhere").resolve("pid.4242"));

        List<Path> removed = OpenMpiSessionDirectory.removeOf(4242, tmp, shm);

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

            List<Path> removed = OpenMpiSessionDirectory.sweepStale(tmp, shm);

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

    /**
     * The segments of the jobs a removed directory's mpirun ran (its job family, from its contact file, in the upper
     * 16 bits of the job id in their names) go with it; another family's, another user's and other files stay.
     */
    @Test
    void aRemovedDirectoryTakesItsJobsSharedMemorySegmentsWithIt() throws IOException {
        Path killed = Files.createDirectories(tmp.resolve("ompi.vm.0").resolve("pid.4242"));
        Files.writeString(killed.resolve("contact.txt"), "779812864.0;tcp://192.0.2.2:33409\n4242\n");
        long uid = ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        List<Path> ours = List.of(shm.resolve("vader_segment.vm." + uid + ".2e7b0001.0"),
                shm.resolve("vader_segment.vm." + uid + ".2e7b0001.1"),
                shm.resolve("vader_segment.node-1.example." + uid + ".2e7b0002.0"));
        List<Path> others = List.of(shm.resolve("vader_segment.vm." + uid + ".2e7c0001.0"),
                shm.resolve("vader_segment.vm." + (uid + 1) + ".2e7b0001.0"), shm.resolve("weft-job-2e7b0001"));
        for (Path file : concat(ours, others)) {
            Files.writeString(file, "x");
        }

        OpenMpiSessionDirectory.removeOf(4242, tmp, shm);

        for (Path segment : ours) {
            assertFalse(Files.exists(segment), segment + " belongs to the killed mpirun's jobs");
        }
        for (Path other : others) {
            assertTrue(Files.exists(other), other + " is not the killed mpirun's");
        }
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    @Test
    void nothingLeftIsNothingToDo() {
        assertEquals(List.of(), OpenMpiSessionDirectory.removeOf(4242, tmp, shm));
        assertEquals(List.of(), OpenMpiSessionDirectory.removeOf(4242, tmp.resolve("missing"), shm));
        assertEquals(List.of(), OpenMpiSessionDirectory.sweepStale(tmp, shm));
        assertEquals(List.of(), OpenMpiSessionDirectory.sweepStale(tmp.resolve("missing"), shm));
    }
}
