package org.weft.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** srun as the remote shell: one task on the named node, running the remote line with sh. */
class SrunTest {
    @Test
    void aLineRunsAsOneOverlappingTaskOnTheNodeUnboundWhereTheClusterBinds() {
        assertEquals(List.of("/usr/bin/srun", "--nodes=1", "--ntasks=1", "--nodelist=n2", "--overlap", "--mpi=none",
                "--quiet", "--job-name=weftrun", "/bin/sh", "-c", "exec java Main"),
                Srun.command("/usr/bin/srun", "n2", "exec java Main", false));
        assertTrue(Srun.command("srun", "n2", "true", true).contains("--cpu-bind=none"));
    }

    @Test
    void scontrolsTaskPluginSaysWhetherTheClusterBindsTasks() {
        assertTrue(Srun.bindsTasks("AuthType = auth/munge\nTaskPlugin              = task/affinity,task/cgroup\n"));
        assertTrue(Srun.bindsTasks("TaskPlugin = task/cgroup\n"));
        assertFalse(Srun.bindsTasks("SwitchType = switch/none\nTaskPlugin              = task/none\n"));
        assertTrue(Srun.bindsTasks(null), "unknown: the safe side");
    }

    @Test
    void srunIsFoundOnThePath(@TempDir Path dir) throws IOException {
        Path srun = Files.createFile(dir.resolve("srun"));
        assertNull(Srun.find(dir.toString()), "not executable");
        srun.toFile().setExecutable(true);
        assertEquals(srun.toString(), Srun.find("/nonexistent:" + dir));
        assertNull(Srun.find(null));
    }
}
