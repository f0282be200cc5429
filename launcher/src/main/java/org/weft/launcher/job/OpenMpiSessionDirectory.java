package org.weft.launcher.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The session directory an Open MPI 4.1 {@code mpirun} keeps while it runs: {@code TMPDIR/ompi.HOST.UID/pid.PID}.
 * The mpirun removes it when it ends, but not when it is killed with SIGKILL — which the launcher does to a native
 * site's mpirun that did not end within its grace after SIGTERM (a loaded host can make it that slow). The launcher
 * then removes it itself: the pid is the dead mpirun's, so no live job's directory is touched.
 */
final class OpenMpiSessionDirectory {
    private OpenMpiSessionDirectory() {
    }

    /** Removes the session directories of the ended mpirun {@code pid} under {@code tmp}; returns what it removed. */
    static List<Path> removeOf(long pid, Path tmp) {
        try (Stream<Path> tops = Files.list(tmp)) {
            List<Path> left = tops.filter(top -> top.getFileName().toString().startsWith("ompi."))
                    .map(top -> top.resolve("pid." + pid)).filter(Files::isDirectory).toList();
            for (Path directory : left) {
                deleteTree(directory);
            }
            return left;
        } catch (IOException | UncheckedIOException e) {
            return List.of(); // nothing to clean, or not ours to clean: Open MPI's next run sweeps its own
        }
    }

    /** The temporary directory Open MPI uses, as the launcher's environment (which its mpiruns inherit) says. */
    static Path tmp() {
        String tmpdir = System.getenv("TMPDIR");
        return Path.of(tmpdir == null || tmpdir.isEmpty() ? "/tmp" : tmpdir);
    }

    private static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> tree = Files.walk(directory)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
