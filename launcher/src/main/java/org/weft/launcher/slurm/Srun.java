package org.weft.launcher.slurm;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.weft.launcher.agent.RemoteShell;

/**
 * {@code srun} as the agent that starts a process on another node of the allocation, in place of ssh: one job step
 * of one task on that node for each rank, so that each rank keeps its own standard streams and exit status (Open
 * MPI's mpirun starts one daemon per node with one srun instead, and its daemons start the ranks). The step
 * overlaps the others ({@code --overlap}: several ranks share a node's CPUs, as under ssh), uses no MPI plugin of
 * SLURM's ({@code --mpi=none}: Weft brings its own bootstrap) and runs the remote shell line with {@code sh -c}.
 * SLURM ends the step when {@code srun} is killed, and every step when the job is cancelled or runs out of time.
 */
public final class Srun {
    private Srun() {
    }

    /** The remote shell that starts processes on {@code host} with {@code srun}. */
    public static RemoteShell remoteShell(String srun, String workingDirectory) {
        return new RemoteShell((host, shellLine) -> command(srun, host, shellLine), workingDirectory);
    }

    /** {@code srun}'s command line running {@code shellLine} on {@code host}, one task there. */
    static List<String> command(String srun, String host, String shellLine) {
        List<String> command = new ArrayList<>(List.of(srun, "--nodes=1", "--ntasks=1", "--nodelist=" + host,
                "--overlap", "--mpi=none", "--quiet", "--job-name=weftrun"));
        command.addAll(List.of("/bin/sh", "-c", shellLine));
        return command;
    }

    /** The {@code srun} on {@code path} (the launcher's PATH), or {@code null} when there is none. */
    public static String find(String path) {
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "srun");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
    }
}
