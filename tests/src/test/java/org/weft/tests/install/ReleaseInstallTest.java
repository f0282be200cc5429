package org.weft.tests.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.Scripts;
import org.weft.tests.harness.ThreadDumps;

/**
 * The release archive unpacked into an empty directory, its {@code bin/} on the PATH, run with an environment that
 * holds only {@code PATH} and {@code JAVA_HOME}, from a directory outside the build tree: the scripts must find their
 * own {@code lib/} and the JDK. A separate user project, with its own {@code pom.xml} depending on
 * {@code org.weft:mpi-api} (version from {@code org.weft:weft-bom}), is built by Maven from a temporary local
 * repository (the artifacts copied in as {@code install} lays them out; the shared {@code ~/.m2} is only read, as a
 * read-only tail) and run under the release's {@code weftrun}.
 */
class ReleaseInstallTest {
    private static final String VERSION = System.getProperty("weft.version");

    @TempDir
    static Path temp;

    private static Path release;

    @BeforeAll
    static void unpack() throws Exception {
        Path archive = Path.of(System.getProperty("weft.release.archive"));
        assertTrue(Files.isRegularFile(archive), archive + " (built by the distribution module)");
        // a blank in the path, as in "My Apps": the scripts split no path on blanks
        Path install = Files.createDirectories(temp.resolve("opt dir"));
        Run untar = run(List.of("tar", "xzf", archive.toString()), install, Map.of(), Duration.ofSeconds(60));
        assertEquals(0, untar.exitCode(), untar.output());
        release = install.resolve("weft-" + VERSION);
        for (String file : List.of("bin/weftrun", "bin/weft", "bin/weftjavac", "examples/examples.jar",
                "examples/src/Hello.java", "README.md", "CHANGELOG.md", "docs/architecture.md")) {
            assertTrue(Files.exists(release.resolve(file)), file + " in the release");
        }
    }

    @Test
    void anExampleRunsFromTheUnpackedRelease() throws Exception {
        Path work = Files.createDirectories(temp.resolve("example-work"));
        // as Open MPI's Java users type it: mpirun -np 2 java -cp ... Hello
        Run job = weft(work, "weftrun", "-np", "2", "java", "-cp", release.resolve("examples/examples.jar").toString(),
                "Hello");
        assertEquals(0, job.exitCode(), job.output());
        assertTrue(job.output().contains("I am 0 of 2") && job.output().contains("I am 1 of 2"), job.output());

        Run info = weft(work, "weft", "info");
        assertEquals(0, info.exitCode(), info.output());
        assertTrue(info.output().contains("Launcher jar: " + release.resolve("lib")), info.output());
        Path buildTree = Scripts.find("mvnw").getParent();
        assertTrue(!info.output().contains(buildTree.toString()), "no jar of the build tree:\n" + info.output());

        Run bench = weft(work, "weft", "bench", "latency", "-m", "8", "-i", "50");
        assertEquals(0, bench.exitCode(), bench.output());
        assertTrue(Pattern.compile("(?m)^8\\s+[0-9.]+$").matcher(bench.output()).find(),
                "weft bench finds its jar in the release; a row for 8 bytes:\n" + bench.output());

        Run version = weft(work, "weftrun", "--version");
        assertTrue(version.output().startsWith("Weft " + VERSION + "\nJDK "), version.output());
    }

    @Test
    void aUserProjectBuiltWithMavenRunsUnderTheRelease() throws Exception {
        Path project = Files.createDirectories(temp.resolve("user-project"));
        Files.writeString(project.resolve("pom.xml"), resource("pom.xml").replace("@WEFT_VERSION@", VERSION));
        Path sources = Files.createDirectories(project.resolve("src/main/java"));
        Files.writeString(sources.resolve("UserSum.java"), resource("UserSum.java"));
        Path repository = installedRepository();

        Path buildTree = Scripts.find("mvnw").getParent();
        Path m2 = Path.of(System.getProperty("user.home"), ".m2", "repository");
        Run build = run(List.of(buildTree.resolve("mvnw").toString(), "-B", "-q", "-o", "compile",
                "-Dmaven.repo.local=" + repository, "-Dmaven.repo.local.tail=" + m2), project,
                Map.of("JAVA_HOME", System.getProperty("java.home"), "HOME", System.getProperty("user.home")),
                Duration.ofMinutes(4));
        assertEquals(0, build.exitCode(), build.output());

        Run job = weft(project, "weftrun", "-np", "3", "-cp", "target/classes", "UserSum");
        assertEquals(0, job.exitCode(), job.output());
        assertTrue(job.output().contains("user sum 6 over 3 ranks"), job.output());
    }

    /**
     * A local repository holding Weft's {@code mpi-api}, {@code adi-device}, parent POM and BOM where
     * {@code install} puts them: the jars the release ships, the POMs of the build tree.
     */
    private static Path installedRepository() throws IOException {
        Path repository = temp.resolve("repository");
        Path buildTree = Scripts.find("mvnw").getParent();
        copy(buildTree.resolve("pom.xml"), repository, "weft-parent", "pom");
        copy(buildTree.resolve("bom/pom.xml"), repository, "weft-bom", "pom");
        for (String module : List.of("adi-device", "mpi-api")) {
            copy(buildTree.resolve(module).resolve("pom.xml"), repository, module, "pom");
            copy(release.resolve("lib").resolve(module + "-" + VERSION + ".jar"), repository, module, "jar");
        }
        return repository;
    }

    private static void copy(Path file, Path repository, String artifactId, String extension) throws IOException {
        Path directory = Files.createDirectories(repository.resolve("org/weft").resolve(artifactId).resolve(VERSION));
        Files.copy(file, directory.resolve(artifactId + "-" + VERSION + "." + extension));
    }

    private static String resource(String name) throws IOException {
        try (var in = ReleaseInstallTest.class.getResourceAsStream("user-project/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** One of the release's commands, found through the PATH, with only PATH and JAVA_HOME in the environment. */
    private static Run weft(Path directory, String... command) throws Exception {
        List<String> shell = new ArrayList<>(List.of("/bin/sh", "-c", "exec \"$@\"", "sh"));
        shell.addAll(List.of(command));
        String path = release.resolve("bin") + ":/usr/bin:/bin";
        return run(shell, directory, Map.of("PATH", path, "JAVA_HOME", System.getProperty("java.home")),
                Duration.ofSeconds(120));
    }

    /** What a finished command left: its exit code, and stdout and stderr together. */
    record Run(int exitCode, String output) {
    }

    /** Runs a command with exactly this environment; one that does not end in time fails with thread dumps. */
    private static Run run(List<String> command, Path directory, Map<String, String> environment, Duration timeout)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile(temp, "run", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            StringBuilder dumps = new StringBuilder();
            try (Stream<ProcessHandle> processes = process.descendants()) {
                processes.forEach(p -> dumps.append("== ").append(p.pid()).append('\n')
                        .append(ThreadDumps.ofProcess(p.pid())));
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError(command + " did not end within " + timeout + "\n" + Files.readString(log)
                    + "\nthread dumps:\n" + dumps);
        }
        return new Run(process.exitValue(), Files.readString(log));
    }
}
