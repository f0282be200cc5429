package org.weft.launcher.plan;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Whose {@code mpirun} starts a native site — its options and its output tags differ: Open MPI's ({@code orterun})
 * or MPICH's Hydra ({@code mpiexec.hydra}, also under Intel MPI and MVAPICH). Told by what {@code mpirun --version}
 * prints; one that cannot be run or says neither is taken for Open MPI's, whose options Weft used before it knew
 * Hydra's (starting it then fails with that mpirun's own message).
 */
public enum MpirunFlavour {
    OPEN_MPI, HYDRA;

    private static final Map<Path, MpirunFlavour> KNOWN = new ConcurrentHashMap<>();

    /** The flavour of the {@code mpirun} at {@code path}, asked once per path. */
    public static MpirunFlavour of(Path path) {
        return KNOWN.computeIfAbsent(path, MpirunFlavour::ask);
    }

    private static MpirunFlavour ask(Path path) {
        try {
            Process process = new ProcessBuilder(path.toString(), "--version").redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            byte[] output = process.getInputStream().readNBytes(64 * 1024);
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            return fromVersion(new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return OPEN_MPI;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OPEN_MPI;
        }
    }

    /** The flavour whose {@code --version} printed {@code text}. */
    static MpirunFlavour fromVersion(String text) {
        return text.contains("HYDRA") ? HYDRA : OPEN_MPI;
    }
}
