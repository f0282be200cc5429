package org.weft.launcher.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code weft bench --reference}: builds a benchmark's {@link CTwin} with {@code mpicc} (once per version of its
 * source: the binary is kept in {@code ~/.cache/weft/bench-c}, named after the source's hash) and runs it under
 * Open MPI's {@code mpirun} on as many ranks, showing its output and reading its rows into a table.
 */
public final class CReference {
    /** An OSU row: a size, then a figure (the first one is taken). */
    private static final Pattern ROW = Pattern.compile("^\\s*(\\d+)\\s+([-+0-9.eE]+)(\\s.*)?$");

    private final Map<String, String> environment;
    private final PrintStream out;
    private final PrintStream err;

    public CReference(Map<String, String> environment, PrintStream out, PrintStream err) {
        this.environment = environment;
        this.out = out;
        this.err = err;
    }

    /** Whether {@code mpicc} and {@code mpirun} are on the PATH; says on {@code err} which one is not. */
    public boolean available() {
        for (String tool : List.of("mpicc", "mpirun")) {
            if (onPath(tool) == null) {
                err.println("weft bench --reference: no " + tool + " on the PATH (Open MPI: apt-get install "
                        + "openmpi-bin libopenmpi-dev), so no C twin runs; Weft's figures alone are written");
                return false;
            }
        }
        return true;
    }

    /**
     * Builds {@code twin} from {@code sources} if needed and runs it on {@code np} ranks with {@code mpirunOptions};
     * returns its rows as a table of one column, {@code column}.
     */
    public ResultTable run(CTwin twin, Path sources, int np, List<String> mpirunOptions, String rowLabel,
                           String column) throws IOException, InterruptedException {
        Path binary = build(sources.resolve(twin.source()));
        List<String> command = new ArrayList<>(List.of("mpirun", "-np", Integer.toString(np)));
        if (np > Runtime.getRuntime().availableProcessors()) {
            command.add("--oversubscribe"); // only then: it has Open MPI's ranks yield when idle
        }
        command.addAll(mpirunOptions);
        command.add(binary.toString());
        command.addAll(twin.arguments());
        err.println("weft bench: Open MPI's C twin: " + String.join(" ", command));
        ResultTable table = new ResultTable(twin.program(), rowLabel, List.of(column));
        table.note("command", String.join(" ", command));
        int status = run(command, line -> {
            out.println(line);
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                table.add(row.group(1), Double.parseDouble(row.group(2)));
            }
        });
        if (status != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + status);
        }
        return table;
    }

    /** The binary of {@code source}, compiled with {@code mpicc -O2} unless this version is compiled already. */
    Path build(Path source) throws IOException, InterruptedException {
        if (!Files.isRegularFile(source)) {
            throw new IOException("no C twin source " + source);
        }
        String name = source.getFileName().toString().replaceFirst("\\.c$", "");
        Path binary = cacheDirectory().resolve(name + "-" + hash(Files.readAllBytes(source)));
        if (Files.isExecutable(binary)) {
            return binary;
        }
        Files.createDirectories(binary.getParent());
        Path building = Files.createTempFile(binary.getParent(), name, ".building");
        List<String> command = List.of("mpicc", "-O2", "-o", building.toString(), source.toString());
        err.println("weft bench: building " + source.getFileName() + ": " + String.join(" ", command));
        int status = run(command, err::println);
        if (status != 0) {
            Files.deleteIfExists(building);
            throw new IOException(String.join(" ", command) + " exited with " + status);
        }
        // another weft bench may build the same one at once: each renames its own whole file over
        return Files.move(building, binary, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private Path cacheDirectory() {
        String cache = environment.get("XDG_CACHE_HOME");
        Path base = cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".cache");
        return base.resolve("weft").resolve("bench-c");
    }

    /** Runs {@code command} (Open MPI allowed to run as root), each output line to {@code lines}; its status. */
    private int run(List<String> command, java.util.function.Consumer<String> lines)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process process = builder.start();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            reader.lines().forEach(lines);
        }
        return process.waitFor();
    }

    private Path onPath(String tool) {
        for (String dir : environment.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return Path.of(dir, tool);
            }
        }
        return null;
    }

    private static String hash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }
}
