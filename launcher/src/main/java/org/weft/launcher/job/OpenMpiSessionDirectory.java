package org.weft.launcher.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The session directory an Open MPI 4.1 {@code mpirun} keeps while it runs: {@code TMPDIR/ompi.HOST.UID/pid.PID}.
 * The mpirun removes it when it ends, but not when it is killed with SIGKILL — which the launcher does to a native
 * site's mpirun that did not end within its grace after SIGTERM (a loaded host can make it that slow). The launcher
 * then removes it itself: the pid is the dead mpirun's, so no live job's directory is touched.
 *
 * <p>A launcher killed with SIGKILL cannot do that, and an {@code orted} on another host of the job leaves its own
 * directory when its mpirun goes; a later mpirun or orted whose pid is the stale directory's then fails in
 * {@code session_dir.c} ("ORTE_ERROR_LOG ... at line 107"). So before it starts a job with an Open MPI site the
 * launcher also sweeps the directories whose pid is no Open MPI daemon any more ({@link #sweepStale}).
 *
 * <p>A killed job's ranks also leave their shared-memory segments ({@code /dev/shm/vader_segment.HOST.UID.JOBID.RANK},
 * 4 MiB each and more), which nothing else removes: their names carry the job's id, not a pid. The session
 * directory's {@code contact.txt} names the mpirun's job family (the upper 16 bits of its jobs' ids), so removing a
 * directory removes the segments of that family's jobs with it ({@link VaderSegments}).
 */
final class OpenMpiSessionDirectory {
    /** The names ({@code /proc/PID/comm}) of the Open MPI processes that own a session directory. */
    private static final Set<String> DAEMONS = Set.of("mpirun", "orterun", "mpiexec", "orted", "prterun", "prted");

    private OpenMpiSessionDirectory() {
    }

    /** Removes the session directories of the ended mpirun {@code pid} under {@code tmp}; returns what it removed. */
    static List<Path> removeOf(long pid, Path tmp, Path shm) {
        return remove(tmp, shm, top -> Stream.of(top.resolve("pid." + pid)).filter(Files::isDirectory));
    }

    /**
     * Removes the session directories under {@code tmp}'s {@code ompi.*} directories whose pid is not a running
     * Open MPI daemon (an mpirun, orterun, mpiexec or orted; a pid that was reused by another program counts as
     * gone); returns what it removed. Only this user's directories are looked into.
     */
    static List<Path> sweepStale(Path tmp, Path shm) {
        return remove(tmp, shm, top -> isOurs(top) ? sessions(top).filter(session -> !isDaemonAlive(session))
                : Stream.empty());
    }

    /**
     * Removes what {@code pick} chooses in each of {@code tmp}'s {@code ompi.*} directories, and the segments in
     * {@code shm} of the jobs each chosen directory's mpirun ran; returns the directories.
     */
    private static List<Path> remove(Path tmp, Path shm, Function<Path, Stream<Path>> pick) {
        try (Stream<Path> tops = Files.list(tmp)) {
            List<Path> chosen = tops.filter(top -> top.getFileName().toString().startsWith("ompi.")).flatMap(pick)
                    .toList();
            for (Path directory : chosen) {
                VaderSegments.removeOfSession(directory, shm);
                deleteTree(directory);
            }
            return chosen;
        } catch (IOException | UncheckedIOException e) {
            return List.of(); // nothing to clean, or not ours to clean: Open MPI's next run sweeps its own
        }
    }

    private static Stream<Path> sessions(Path top) {
        try (Stream<Path> entries = Files.list(top)) {
            return entries.filter(session -> session.getFileName().toString().matches("pid\\.\\d+")).toList()
                    .stream();
        } catch (IOException e) {
            return Stream.empty();
        }
    }

    private static boolean isDaemonAlive(Path session) {
        try {
            long pid = Long.parseLong(session.getFileName().toString().substring("pid.".length()));
            if (ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
                return false;
            }
            return DAEMONS.contains(Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip());
        } catch (IOException | RuntimeException e) {
            return true; // cannot tell (no /proc, or digits no pid has): leave it
        }
    }

    private static boolean isOurs(Path top) {
        long mine = ownerOf(Path.of("/proc/self"));
        return mine >= 0 && ownerOf(top) == mine;
    }

    /** The uid that owns {@code path} ({@code /proc/self}: this process's), or -1 if it cannot be read. */
    static long ownerOf(Path path) {
        try {
            return ((Number) Files.getAttribute(path, "unix:uid")).longValue();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The temporary directory Open MPI uses, as the launcher's environment (which its mpiruns inherit) says. */
    static Path tmp() {
        String tmpdir = System.getenv("TMPDIR");
        return Path.of(tmpdir == null || tmpdir.isEmpty() ? "/tmp" : tmpdir);
    }

    /** Where Open MPI's shared-memory transport keeps its segments (its default backing directory). */
    static Path shm() {
        return Path.of("/dev/shm");
    }

    private static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> tree = Files.walk(directory)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
