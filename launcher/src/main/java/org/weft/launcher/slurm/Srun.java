package org.weft.launcher.slurm;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    private static final Pattern TASK_PLUGIN = Pattern.compile("(?m)^TaskPlugin\\s*=\\s*(.*)$");

    private Srun() {
    }

    /**
     * The remote shell that starts processes on {@code host} with {@code srun}; asks {@code scontrol} once, at the
     * first remote start, whether this cluster binds tasks to CPUs.
     */
    public static RemoteShell remoteShell(String srun, String workingDirectory) {
        AtomicReference<Boolean> binds = new AtomicReference<>();
        return new RemoteShell((host, shellLine) -> {
            binds.compareAndSet(null, bindsTasks(scontrolConfig(srun)));
            return command(srun, host, shellLine, binds.get());
        }, workingDirectory);
    }

    /**
     * {@code srun}'s command line running {@code shellLine} on {@code host}, one task there. Where the cluster binds
     * tasks to CPUs ({@code TaskPluginParam=cores}, common), each rank's one-task step would be bound to the first
     * core of the node, every rank to the same one: {@code --cpu-bind=none}, as Open MPI's mpirun gives srun for its
     * daemons (a cluster that cannot bind says so on stderr when given it, hence only there).
     */
    static List<String> command(String srun, String host, String shellLine, boolean clusterBindsTasks) {
        List<String> command = new ArrayList<>(List.of(srun, "--nodes=1", "--ntasks=1", "--nodelist=" + host,
                "--overlap", "--mpi=none", "--quiet", "--job-name=weftrun"));
        if (clusterBindsTasks) {
            command.add("--cpu-bind=none");
        }
        command.addAll(List.of("/bin/sh", "-c", shellLine));
        return command;
    }

    /**
     * Whether {@code scontrol show config} names a task plugin that binds tasks to CPUs ({@code task/affinity},
     * {@code task/cgroup}); when it cannot be told, binding is assumed, the safe side for the ranks' speed.
     */
    static boolean bindsTasks(String config) {
        if (config == null) {
            return true;
        }
        Matcher plugin = TASK_PLUGIN.matcher(config);
        return !plugin.find() || plugin.group(1).contains("affinity") || plugin.group(1).contains("cgroup");
    }

    /** {@code scontrol show config} (the scontrol beside {@code srun}), or {@code null} when it fails. */
    private static String scontrolConfig(String srun) {
        Path scontrol = Path.of(srun).resolveSibling("scontrol");
        try {
            Process process = new ProcessBuilder(Files.isExecutable(scontrol) ? scontrol.toString() : "scontrol",
                    "show", "config").redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(
                    new File("/dev/null"))).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return process.waitFor() == 0 ? output : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
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
