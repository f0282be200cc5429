package org.weft.bench.path;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time this JVM's JIT compiler threads ({@code C1 CompilerThre…}, {@code C2 CompilerThre…}) have used, from
 * their {@code /proc/self/task/TID/schedstat}: on a machine with as many busy ranks as cores it is time the ranks
 * did not get (issue 20 item 13: a fresh job's first window). Compiler threads that ended are not counted.
 */
final class CompilerCpu {
    private static final Path TASKS = Path.of("/proc/self/task");

    private CompilerCpu() {
    }

    /** Milliseconds of CPU, or -1 where {@code /proc} does not tell. */
    static double millis() {
        long nanos = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                String name = Files.readString(task.resolve("comm"));
                if (name.startsWith("C1 ") || name.startsWith("C2 ")) {
                    String schedstat = Files.readString(task.resolve("schedstat"));
                    nanos += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return nanos / 1e6;
    }
}
