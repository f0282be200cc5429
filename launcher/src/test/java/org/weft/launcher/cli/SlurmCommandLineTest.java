package org.weft.launcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.launcher.plan.JobPlan;
import picocli.CommandLine.ParameterException;

/** weftrun inside a SLURM allocation: hosts, slots and -np from SLURM's environment, srun for other nodes. */
class SlurmCommandLineTest {
    /** A batch script's environment on node n1 of an allocation of n[1-2] with 2 tasks each. */
    private static Map<String, String> batchOnN1(Path srunDir) {
        Map<String, String> environment = new HashMap<>(Map.of("SLURM_JOB_ID", "42", "SLURM_JOB_NODELIST", "n[1-2]",
                "SLURM_TASKS_PER_NODE", "2(x2)", "SLURM_NTASKS", "4", "SLURMD_NODENAME", "n1"));
        environment.put("PATH", srunDir.toString());
        return environment;
    }

    private static WeftRun weftrun(Map<String, String> environment, String... args) {
        WeftRun command = new WeftRun(environment, InputStream.nullInputStream(),
                new PrintStream(OutputStream.nullOutputStream()), new PrintStream(new ByteArrayOutputStream()));
        WeftRun.commandLine(command, System.out, System.err).parseArgs(args);
        return command;
    }

    private static Path srunIn(Path dir) throws IOException {
        Path srun = Files.createFile(dir.resolve("srun"));
        srun.toFile().setExecutable(true);
        return srun;
    }

    @Test
    void npDefaultsToTheAllocationsTasksPlacedOnItsNodes(@TempDir Path dir) throws IOException {
        Path srun = srunIn(dir);
        WeftRun command = weftrun(batchOnN1(dir), "-cp", "out", "Ring");
        JobPlan plan = command.plan();
        assertEquals(4, plan.np());
        assertEquals(List.of("", "", "n2", "n2"), plan.rankHosts(), "the batch script's node is this host");
        assertEquals(srun.toString(), command.remoteShell(null, plan).command("n2", "true").getFirst(),
                "other nodes are reached with srun");
        assertEquals("ssh", command.remoteShell("ssh -p 2222", plan).command("n2", "true").getFirst(),
                "unless a remote shell is named");
    }

    @Test
    void mpirunsOptionsApplyToTheAllocationsSlots(@TempDir Path dir) throws IOException {
        srunIn(dir);
        Map<String, String> environment = batchOnN1(dir);
        assertEquals(List.of("", "n2", "", "n2"), weftrun(environment, "--map-by", "node", "Main").plan().rankHosts());
        assertEquals(List.of("", "n2"), weftrun(environment, "-npernode", "1", "Main").plan().rankHosts());
        assertEquals(List.of("n1", "n2"), weftrun(environment, "--host", "n1,n2", "Main").plan().rankHosts());
        ParameterException tooMany = assertThrows(ParameterException.class,
                () -> weftrun(environment, "-np", "5", "Main").plan());
        assertTrue(tooMany.getMessage().contains("-np 5 is more than the 4 slots"), tooMany.getMessage());
        assertEquals(6, weftrun(environment, "-np", "6", "--oversubscribe", "Main").plan().np());
    }

    @Test
    void withoutSrunOnThePathAJobOnOtherNodesIsRefusedClearly(@TempDir Path dir) {
        Map<String, String> environment = batchOnN1(dir);
        WeftRun command = weftrun(environment, "Main");
        ParameterException refused = assertThrows(ParameterException.class,
                () -> command.remoteShell(null, command.plan()));
        assertTrue(refused.getMessage().contains("SLURM job 42") && refused.getMessage().contains("srun"),
                refused.getMessage());
    }

    @Test
    void aGarbledAllocationIsABadCommandLineNamingTheVariable() {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        WeftRun command = new WeftRun(Map.of("SLURM_JOB_ID", "9", "SLURM_JOB_NODELIST", "n[1-"),
                InputStream.nullInputStream(), new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        assertEquals(2, WeftRun.commandLine(command, System.out, new PrintStream(stderr, true, StandardCharsets.UTF_8))
                .execute("Main"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("SLURM job 9"), stderr.toString());
    }
}
