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

    @Test
    void nothingLeftIsNothingToDo() {
        assertEquals(List.of(), OpenMpiSessionDirectory.removeOf(4242, tmp));
        assertEquals(List.of(), OpenMpiSessionDirectory.removeOf(4242, tmp.resolve("missing")));
    }
}
