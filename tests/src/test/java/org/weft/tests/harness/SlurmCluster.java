package org.weft.tests.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real SLURM cluster on this machine for a test class: munged, slurmctld and slurmd nodes {@code sl-n1..},
 * each in a network and UTS namespace of its own ({@code bin/weft-slurm}; root, Debian's slurm-wlm and munge, which
 * {@code .ci/run} installs). {@link #start} fails, saying why, when the daemons cannot start; it never skips.
 * {@link #environment()} points SLURM's commands at this cluster.
 */
public final class SlurmCluster implements AutoCloseable {
    private static final Path SCRIPT = Scripts.find("bin/weft-slurm");
    private static final long COMMAND_SECONDS = 90;

    private final Path dir;

    private SlurmCluster(Path dir) {
        this.dir = dir;
    }

    /**
     * Starts {@code nodes} nodes of {@code cpus} CPUs each, with every file under {@code dir}.
     *
     * @throws AssertionError with the daemons' complaints when the cluster does not come up
     */
    public static SlurmCluster start(Path dir, int nodes, int cpus) throws IOException, InterruptedException {
        if (!System.getProperty("user.name").equals("root")) {
            throw new AssertionError("a SLURM cluster needs root (slurmd, network namespaces); run as root");
        }
        SlurmCluster cluster = new SlurmCluster(dir);
        Output up = run(List.of(SCRIPT.toString(), "up", dir.toString(), Integer.toString(nodes),
                Integer.toString(cpus)), Map.of());
        if (up.status() != 0) {
            cluster.close();
            throw new AssertionError("the SLURM cluster did not start (bin/weft-slurm up " + dir + "):\n" + up.text());
        }
        return cluster;
    }

    /** What SLURM's commands need to use this cluster. */
    public Map<String, String> environment() {
        return Map.of("SLURM_CONF", dir.resolve("slurm.conf").toString());
    }

    /**
     * What is left in each node's own {@code /dev/shm} (seen from here through its slurmd's root): the entries whose
     * names start with {@code prefix}, as {@code node: name}.
     */
    public List<String> sharedMemoryLeftovers(String prefix) throws IOException {
        List<String> leftovers = new ArrayList<>();
        try (Stream<Path> nodes = Files.list(dir)) {
            for (Path pidFile : nodes.map(node -> node.resolve("slurmd.pid")).filter(Files::exists).toList()) {
                Path shm = Path.of("/proc", Files.readString(pidFile).strip(), "root", "dev", "shm");
                try (Stream<Path> entries = Files.list(shm)) {
                    entries.map(entry -> entry.getFileName().toString()).filter(name -> name.startsWith(prefix))
                            .forEach(name -> leftovers.add(pidFile.getParent().getFileName() + ": " + name));
                }
            }
        }
        return leftovers;
    }

    /** Runs one of SLURM's commands ({@code squeue -h}) against this cluster; its status and output. */
    public Output command(String... command) throws IOException, InterruptedException {
        return run(List.of(command), environment());
    }

    /** A command's exit status and its output, both streams together. */
    public record Output(int status, String text) {
    }

    private static Output run(List<String> command, Map<String, String> environment)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] bytes = process.getInputStream().readAllBytes();
        if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not end within " + COMMAND_SECONDS + " s");
        }
        return new Output(process.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }

    /** Stops the daemons, kills what jobs left on the nodes and removes the nodes. */
    @Override
    public void close() throws IOException, InterruptedException {
        Output down = run(List.of(SCRIPT.toString(), "down", dir.toString()), Map.of());
        if (down.status() != 0) {
            throw new AssertionError("bin/weft-slurm down " + dir + " failed:\n" + down.text());
        }
    }
}
