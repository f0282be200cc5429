package org.weft.tests.harness;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A command of the repository's {@code bin/} (or any other) run as a user runs it, in a directory of the test's:
 * its exit code and output, or, if it does not end in time, a failure with a thread dump of every JVM under it.
 */
public final class CommandRun {
    /** What a finished command left. */
    public record Result(int exitCode, String stdout, String stderr) {
        public String output() {
            return stdout + stderr;
        }
    }

    private CommandRun() {
    }

    /** Runs {@code command} in {@code directory} with this JVM's environment plus {@code environment}. */
    public static Result run(List<String> command, Path directory, Map<String, String> environment, Duration timeout)
            throws IOException, InterruptedException {
        File out = Files.createTempFile(directory, "stdout", ".log").toFile();
        File err = Files.createTempFile(directory, "stderr", ".log").toFile();
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectOutput(out)
                .redirectError(err);
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            StringBuilder dumps = new StringBuilder();
            try (Stream<ProcessHandle> processes = process.descendants()) {
                processes.forEach(p -> dumps.append("== ").append(p.pid()).append(' ')
                        .append(p.info().command().orElse("?")).append('\n').append(ThreadDumps.ofProcess(p.pid())));
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError(command + " did not end within " + timeout + "\nstdout:\n"
                    + Files.readString(out.toPath()) + "\nstderr:\n" + Files.readString(err.toPath())
                    + "\nthread dumps:\n" + dumps);
        }
        return new Result(process.exitValue(), Files.readString(out.toPath()), Files.readString(err.toPath()));
    }
}
