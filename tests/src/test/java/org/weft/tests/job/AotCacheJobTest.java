package org.weft.tests.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.ThreadDumps;

/**
 * The JDK's AOT caches (docs/architecture.md, Start-up): {@code bin/weft-aot-train} trains them for the build's jars,
 * {@code bin/weftrun} then starts the launcher and every rank from them, with the program's own classes before Weft's;
 * and a cache the JDK cannot use changes nothing but the speed.
 */
class AotCacheJobTest {
    private static final Path HOME = findHome();
    private static final String EXAMPLES = HOME.resolve("examples/target/classes").toString();
    private static final long LIMIT_SECONDS = 240;

    @TempDir
    static Path dir;
    private static Path caches;

    @BeforeAll
    static void train() throws Exception {
        caches = dir.resolve("aot").resolve("these-jars");
        Result training = run(Map.of("WEFT_AOT_DIR", caches.toString()), "bin/weft-aot-train");
        assertEquals(0, training.exit(), training.output());
        assertTrue(Files.size(caches.resolve("launcher.aot")) > 0, training.output());
        assertTrue(Files.size(caches.resolve("rank.aot")) > 0, training.output());
    }

    @Test
    void theLauncherAndEveryRankLoadWeftFromTheCaches() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        Result job = run(Map.of("WEFT_AOT_DIR", caches.toString(),
                        "WEFT_LAUNCHER_OPTS", "-Xlog:class+load:file=" + logs.resolve("launcher.log")),
                "bin/weftrun", "-np", "2", "-J", "-Xlog:class+load:file=" + logs.resolve("rank-%p.log"),
                "-cp", EXAMPLES, "Hello");
        assertEquals(0, job.exit(), job.output());
        assertEquals(2, job.stdout().lines().filter(l -> l.startsWith("Hello, world, I am ")).count(), job.output());
        String launcher = Files.readString(logs.resolve("launcher.log"));
        assertTrue(launcher.contains("org.weft.launcher.cli.WeftRun source: shared objects file"), "launcher");
        // picocli's Java 5 classes, which the cache cannot hold as they are, rewritten by the build (ModernBytecode)
        assertTrue(launcher.contains("picocli.CommandLine source: shared objects file"), "picocli");
        for (Path log : rankLogs(logs, 2)) {
            String loaded = Files.readString(log);
            assertTrue(loaded.contains("org.weft.mm.MultimethodDevice source: shared objects file"), log.toString());
            assertTrue(loaded.contains("Hello source: file:"), "the program's own class, from its class path: " + log);
        }
    }

    /**
     * A rank of a one-host job opens none of Weft's jars (the JDK says so with {@code sun.misc.URLClassPath.debug}):
     * Weft's classes come from the cache, the program's class comes first on the class path, the device is found
     * without a look for services files, and the JDK's selector provider is named. Opening Weft's 13 jars cost each
     * rank ~25 ms of CPU (docs/performance.md, "sixth session"). Nor does it load the JDK's security properties
     * (~8 ms): it is given {@code jdk.includeInExceptions}, which its first {@code InetAddress} would read there;
     * nor compile a regular expression (the launcher's one address was put in order with this host's interfaces,
     * a literal recognised by one).
     */
    @Test
    void aRankOfAOneHostJobOpensNoneOfWeftsJars() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("init-logs"));
        Result job = run(Map.of("WEFT_AOT_DIR", caches.toString()), "bin/weftrun", "-np", "2", "-J",
                "-Dsun.misc.URLClassPath.debug=true", "-J", "-Xlog:class+init=info:file=" + logs.resolve("rank-%p.log"),
                "-cp", EXAMPLES, "Hello");
        assertEquals(0, job.exit(), job.output());
        assertEquals(2, job.stdout().lines().filter(l -> l.startsWith("Hello, world, I am ")).count(), job.output());
        List<String> opened = job.stderr().lines().filter(l -> l.startsWith("Opening ")).toList();
        assertEquals(List.of(), opened, job.output());
        assertEquals(2, job.stderr().lines().filter(l -> l.equals("URLClassPath.getResource(\"Hello.class\")"))
                .count(), "the program's class looked up first, once a rank: " + job.output());
        for (Path log : rankLogs(logs, 2)) {
            assertFalse(Files.readString(log).contains("Initializing 'java/security/Security'"),
                    "the JDK's security properties not loaded (jdk.includeInExceptions given): " + log);
            assertFalse(Files.readString(log).contains("Initializing 'java/util/regex/Pattern'"),
                    "no regular expression compiled (the bootstrap address's order, the java command's words): " + log);
        }
    }

    /**
     * The training job reaches one rank over tcp (a host of another name), so a job over tcp finds the tcp module's
     * classes and Netty's in the ranks' cache too, with their profiles: before, each rank of it loaded some 450
     * classes from the jars at its first tcp message.
     */
    @Test
    void aJobOverTcpLoadsTheTcpPathFromTheCache() throws Exception {
        Path logs = Files.createDirectories(dir.resolve("tcp-logs"));
        Result job = run(Map.of("WEFT_AOT_DIR", caches.toString()), "bin/weftrun", "-np", "2", "--methods", "self,tcp",
                "-J", "-Xlog:class+load:file=" + logs.resolve("rank-%p.log"), "-cp", EXAMPLES, "Ring");
        assertEquals(0, job.exit(), job.output());
        assertTrue(job.stdout().contains("Process 1 exiting"), job.output());
        for (Path log : rankLogs(logs, 2)) {
            String loaded = Files.readString(log);
            for (String name : List.of("org.weft.mm.module.tcp.TcpModule", "io.netty.buffer.PooledByteBufAllocator",
                    "io.netty.buffer.PooledUnsafeDirectByteBuf")) {
                assertTrue(loaded.contains(name + " source: shared objects file"), name + " in " + log);
            }
        }
    }

    @Test
    void aCacheTheJdkCannotUseChangesNothingButTheSpeed() throws Exception {
        Path broken = Files.createDirectories(dir.resolve("aot").resolve("broken"));
        for (String cache : List.of("launcher.aot", "rank.aot")) {
            Files.writeString(broken.resolve(cache), "not a cache");
        }
        Result job = run(Map.of("WEFT_AOT_DIR", broken.toString()), "bin/weftrun", "-np", "2", "-cp", EXAMPLES,
                "Hello");
        assertEquals(0, job.exit(), job.output());
        assertEquals(List.of("Hello, world, I am 0 of 2", "Hello, world, I am 1 of 2"),
                job.stdout().lines().map(l -> l.replaceFirst(" on .*", "")).sorted().toList(), job.output());
        assertEquals("", job.stderr(), "no word from the JDK about the cache it could not use");
    }

    /** The class-load logs of the {@code ranks} ranks in {@code logs} ({@code rank-PID.log}). */
    private static List<Path> rankLogs(Path logs, int ranks) throws IOException {
        List<Path> rankLogs;
        try (Stream<Path> files = Files.list(logs)) {
            rankLogs = files.filter(p -> p.getFileName().toString().startsWith("rank-")).toList();
        }
        assertEquals(ranks, rankLogs.size(), rankLogs.toString());
        return rankLogs;
    }

    private record Result(int exit, String stdout, String stderr) {
        String output() {
            return "stdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    /** Runs a script of this checkout with these variables added; fails the test with its output if it hangs. */
    private static Result run(Map<String, String> environment, String script, String... arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(HOME.resolve(script).toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).directory(HOME.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
            StringBuilder dumps = new StringBuilder();
            process.descendants().forEach(p -> dumps.append("== process ").append(p.pid()).append('\n')
                    .append(ThreadDumps.ofProcess(p.pid())));
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError(script + " did not end within " + LIMIT_SECONDS + " s: "
                    + Files.readString(err, StandardCharsets.UTF_8) + "\nthread dumps:\n" + dumps);
        }
        return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** The checkout this test runs in: the directory above that holds bin/weftrun. */
    private static Path findHome() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isExecutable(d.resolve("bin/weftrun"))) {
                return d;
            }
        }
        throw new IllegalStateException("bin/weftrun not found above " + Path.of("").toAbsolutePath());
    }
}
