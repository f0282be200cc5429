package org.weft.tests.harness;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.weft.launcher.cli.WeftRun;
import picocli.CommandLine;

/**
 * A real job: {@code weftrun} in its own JVM starting real rank JVMs, with this test's class path (so test
 * programs in this module can be the ranks' main classes). If the job does not end in time, the failure carries
 * a thread dump of every JVM of the job, and every process of the job is killed.
 */
public final class WeftrunJob {
    private static final CommandLine.Model.CommandSpec WEFTRUN_COMMAND_LINE = WeftRun.commandSpec();

    private final List<String> arguments = new ArrayList<>();
    private final List<String> wrapper = new ArrayList<>();
    private final Map<String, String> environment = new HashMap<>();
    private Duration timeout = Duration.ofSeconds(90);

    private WeftrunJob(List<String> arguments) {
        this.arguments.addAll(arguments);
    }

    /** {@code weftrun ARGS...}; the class path of this test is added as {@code -cp}. */
    public static WeftrunJob of(String... arguments) {
        return new WeftrunJob(List.of(arguments));
    }

    public WeftrunJob timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    /** Runs {@code weftrun} through {@code command}, e.g. {@code salloc -N2}, which gets weftrun's command line. */
    public WeftrunJob wrappedIn(String... command) {
        wrapper.addAll(List.of(command));
        return this;
    }

    /** Adds {@code variables} to the environment of {@code weftrun} (or of its wrapper). */
    public WeftrunJob environment(Map<String, String> variables) {
        environment.putAll(variables);
        return this;
    }

    /** {@code weftrun}'s command line: this JVM's java running the launcher with the arguments and {@code -cp}. */
    public List<String> command() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                classPath(), "org.weft.launcher.cli.WeftRun"));
        command.addAll(insertClassPath(arguments));
        return command;
    }

    /** What a finished job left; {@code stdoutArrivals} tells when each part of standard output came. */
    public record Result(int exitCode, String stdout, String stderr, Arrivals stdoutArrivals) {
        public String output() {
            return stdout + stderr;
        }

        /**
         * How long the job ran on after it printed {@code fragment} on standard output (e.g. a rank's last words
         * before it dies), measured by this JVM when the bytes came; empty if it never printed it. Unlike the time
         * from the start, it does not hold the JVMs' start-up, which takes 10-30 s on a loaded machine.
         */
        public java.util.Optional<Duration> ranOnAfter(String fragment) {
            int at = stdout.indexOf(fragment);
            return at < 0 ? java.util.Optional.empty() : java.util.Optional.of(stdoutArrivals.after(at));
        }
    }

    /** When the bytes of a stream came: the time of each read, with how far the stream had got. */
    public static final class Arrivals {
        private final List<long[]> reads = new ArrayList<>(); // {nanoTime, bytes so far after the read}
        private long endedAt;

        synchronized void read(long bytesSoFar) {
            reads.add(new long[] {System.nanoTime(), bytesSoFar});
        }

        synchronized void end() {
            endedAt = System.nanoTime();
        }

        /** The time from the read that brought byte {@code offset} to the end of the job. */
        synchronized Duration after(int offset) {
            for (long[] read : reads) {
                if (read[1] > offset) {
                    return Duration.ofNanos(endedAt - read[0]);
                }
            }
            return Duration.ZERO;
        }
    }

    /**
     * The job ended within 30 s of the rank's death (the launcher's graces add up to 8 s; the others would wait
     * forever): timed from the rank's last words, not from the start, which takes 10-30 s on a loaded machine.
     */
    public static void assertEndedSoonAfter(WeftrunJob.Result result, String lastWords) {
        Duration ranOn = result.ranOnAfter(lastWords)
                .orElseThrow(() -> new AssertionError("no '" + lastWords + "' in:\n" + result.output()));
        org.junit.jupiter.api.Assertions.assertTrue(ranOn.compareTo(Duration.ofSeconds(30)) < 0, "the job ended " + ranOn + " after '" + lastWords
                + "':\n" + result.output());
    }

    /** The class path the ranks and {@code weftrun} run with: this test JVM's. */
    public static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    public Result start() throws IOException, InterruptedException {
        return run((java.util.function.Consumer<Process>) null);
    }

    /** Runs the job; {@code whileRunning} is called (with the weftrun process) once it has started. */
    public Result run(java.util.function.Consumer<Process> whileRunning) throws IOException, InterruptedException {
        return run(whileRunning == null ? null : (process, output) -> whileRunning.accept(process));
    }

    /**
     * Runs the job; {@code whileRunning} is called once it has started with the weftrun process and what it has
     * printed on standard output so far (asked again, it tells more), e.g. to act when a rank says it is running.
     */
    public Result run(java.util.function.BiConsumer<Process, java.util.function.Supplier<String>> whileRunning)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder.start();
        Drain out = new Drain(process.getInputStream());
        Drain err = new Drain(process.getErrorStream());
        if (whileRunning != null) {
            whileRunning.accept(process, out::soFar);
        }
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            StringBuilder dumps = new StringBuilder();
            dumps.append("== weftrun ").append(process.pid()).append('\n').append(ThreadDumps.ofProcess(process.pid()));
            process.descendants().forEach(p -> dumps.append("== rank process ").append(p.pid()).append('\n')
                    .append(ThreadDumps.ofProcess(p.pid())));
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("weftrun " + arguments + " did not end within " + timeout + "\nstdout:\n"
                    + out.text() + "\nstderr:\n" + err.text() + "\nthread dumps:\n" + dumps);
        }
        out.arrivals.end();
        return new Result(process.exitValue(), out.text(), err.text(), out.arrivals);
    }

    /**
     * Puts {@code -cp CLASSPATH} before the main class (the first argument that is neither an option nor one of an
     * option's values) unless the arguments give one or use {@code -jar}.
     */
    static List<String> insertClassPath(List<String> arguments) {
        if (arguments.contains("-cp") || arguments.contains("-jar")) {
            return arguments;
        }
        List<String> result = new ArrayList<>();
        int i = 0;
        while (i < arguments.size() && arguments.get(i).startsWith("-")) {
            int values = valuesOf(arguments.get(i));
            result.addAll(arguments.subList(i, Math.min(arguments.size(), i + 1 + values)));
            i += 1 + values;
        }
        if (i < arguments.size()) {
            result.add("-cp");
            result.add(classPath());
            result.addAll(arguments.subList(i, arguments.size()));
        }
        return result;
    }

    /** How many values weftrun's option {@code option} takes (e.g. 2 for {@code --path a:b streams=4}), as its own
     * command line declares (so that the harness cannot fall behind weftrun's options); 0 for a flag. */
    private static int valuesOf(String option) {
        CommandLine.Model.OptionSpec spec = WEFTRUN_COMMAND_LINE.findOption(option);
        return spec == null ? 0 : spec.arity().min();
    }

    /** Reads a stream to the end on a thread of its own, so that a chatty job never blocks on a full pipe. */
    private static final class Drain {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final Arrivals arrivals = new Arrivals();
        private final Thread thread;

        Drain(InputStream in) {
            thread = Thread.ofVirtual().start(() -> {
                try (in) {
                    byte[] chunk = new byte[8192];
                    for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                        synchronized (bytes) {
                            bytes.write(chunk, 0, n);
                            arrivals.read(bytes.size());
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        /** What came so far, while the job runs. */
        String soFar() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }

        String text() throws InterruptedException {
            thread.join(5_000);
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
