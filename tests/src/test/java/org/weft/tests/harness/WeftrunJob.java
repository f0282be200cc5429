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

/**
 * A real job: {@code weftrun} in its own JVM starting real rank JVMs, with this test's class path (so test
 * programs in this module can be the ranks' main classes). If the job does not end in time, the failure carries
 * a thread dump of every JVM of the job, and every process of the job is killed.
 */
public final class WeftrunJob {
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

    /** What a finished job left. */
    public record Result(int exitCode, String stdout, String stderr) {
        public String output() {
            return stdout + stderr;
        }
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
        return new Result(process.exitValue(), out.text(), err.text());
    }

    /** Puts {@code -cp CLASSPATH} before the main class unless the arguments give one or use {@code -jar}. */
    private static List<String> insertClassPath(List<String> arguments) {
        if (arguments.contains("-cp") || arguments.contains("-jar")) {
            return arguments;
        }
        List<String> result = new ArrayList<>();
        boolean inserted = false;
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            if (!inserted && !a.startsWith("-") && (i == 0 || !takesValue(arguments.get(i - 1)))) {
                result.add("-cp");
                result.add(classPath());
                inserted = true;
            }
            result.add(a);
        }
        return result;
    }

    private static boolean takesValue(String option) {
        return List.of("-np", "-n", "--timeout", "-x", "--param", "-J", "--jvm-arg", "--methods", "--site",
                "--site-launcher", "--host", "-H", "--rsh", "--hostfile", "--bind-to", "--map-by", "--output-filename",
                "--names", "--app", "-npernode", "-N", "--relay").contains(option);
    }

    /** Reads a stream to the end on a thread of its own, so that a chatty job never blocks on a full pipe. */
    private static final class Drain {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final Thread thread;

        Drain(InputStream in) {
            thread = Thread.ofVirtual().start(() -> {
                try (in) {
                    in.transferTo(bytes);
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
