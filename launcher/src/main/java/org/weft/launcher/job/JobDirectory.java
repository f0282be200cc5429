package org.weft.launcher.job;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The job's private directory on this host ({@code /dev/shm/weft-<launcher pid>-<suffix>}, or under
 * {@code java.io.tmpdir} where there is no {@code /dev/shm}), where the ranks' shared-memory files live. Made
 * before the ranks start, handed to them as {@code WEFT_JOB_DIR}, and deleted with all it holds when the job ends
 * however it ends (normally, on failure, on timeout, from the shutdown hook). Directories left by a launcher that
 * was itself killed with SIGKILL are swept by the next launcher on this host: their names carry a dead pid.
 */
public final class JobDirectory {
    private static final Path DEV_SHM = Path.of("/dev/shm");
    private static final String PREFIX = "weft-";
    /** {@code weft-<pid>-<hex>}: the names {@link org.weft.launcher.plan.JobIdentity#newJobId()} makes. */
    private static final Pattern NAME = Pattern.compile("weft-(\\d+)-[0-9a-f]+");

    /** How often a deletion that met a file appearing while it ran starts again. */
    private static final int DELETE_ATTEMPTS = 3;

    private final Path path;
    private boolean deleted;

    private JobDirectory(Path path) {
        this.path = path;
    }

    /** Where job directories go on this host: {@code /dev/shm} (memory) if usable, else the temporary directory. */
    public static Path defaultBase() {
        return Files.isDirectory(DEV_SHM) && Files.isWritable(DEV_SHM) ? DEV_SHM
                : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** Creates the directory of {@code jobId} under {@code base}, readable by this user only. */
    public static JobDirectory create(Path base, String jobId) throws IOException {
        String name = jobId.startsWith(PREFIX) ? jobId : PREFIX + jobId;
        Path path = base.resolve(name);
        try {
            Files.createDirectory(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectory(path); // not a POSIX file system
        }
        return new JobDirectory(path);
    }

    public Path path() {
        return path;
    }

    /**
     * Deletes the directory and everything in it, once; returns false on error. A second caller waits until the
     * first has finished: the launcher's shutdown hook returning while the main thread was still deleting let the
     * JVM halt half-way, and left the ranks' shared-memory files behind.
     */
    public synchronized boolean delete() {
        if (deleted) {
            return true;
        }
        deleted = true;
        boolean gone = deleteTree(path);
        for (int attempt = 1; !gone && attempt < DELETE_ATTEMPTS; attempt++) {
            gone = deleteTree(path); // a file made while the walk ran leaves its directory non-empty
        }
        return gone;
    }

    /**
     * Deletes the job directories under {@code base} whose launcher (the pid in the name) is no longer running:
     * the leftovers of launchers killed with SIGKILL. Returns how many it removed.
     */
    public static int sweepStale(Path base) {
        int removed = 0;
        try (Stream<Path> entries = Files.list(base)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                Matcher m = NAME.matcher(entry.getFileName().toString());
                if (m.matches() && Files.isDirectory(entry) && Files.isWritable(entry) && !isAlive(m.group(1))) {
                    removed += deleteTree(entry) ? 1 : 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: a sweep that cannot list the base changes nothing
        }
        return removed;
    }

    private static boolean isAlive(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return true; // not ours to judge
        }
    }

    private static boolean deleteTree(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
            return true;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
