package org.weft.launcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import org.weft.launcher.plan.AotCache;
import org.weft.launcher.plan.Hostfile;
import org.weft.launcher.plan.JobIdentity;
import org.weft.launcher.plan.JobPlan;
import org.weft.launcher.plan.MpirunFlavour;
import org.weft.launcher.plan.RankCommands;
import org.weft.launcher.plan.RankLaunch;
import org.weft.launcher.plan.RelayPlacement;
import org.weft.launcher.plan.Site;

/** Parsing of weftrun's command line into a job plan, and of a plan into rank commands; no process runs. */
class WeftRunCommandLineTest {
    private static final Map<String, String> ENV = Map.of("HOME", "/home/ada", "CLASSPATH", "env.jar");

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private JobPlan plan(String... args) {
        WeftRun command = new WeftRun(ENV, InputStream.nullInputStream(), new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        WeftRun.commandLine(command, System.out, System.err).parseArgs(args);
        return command.plan();
    }

    /** An empty jar whose manifest names {@code mainClass}. */
    private static Path jarRunning(Path dir, String mainClass) throws IOException {
        Path jar = dir.resolve("app.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.finish();
        }
        return jar;
    }

    /** The exit status and stderr of a command line that must be refused before anything starts. */
    private static int refuse(ByteArrayOutputStream stderr, String... args) {
        return WeftRun.execute(args, InputStream.nullInputStream(), new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    @Test
    void programArgumentsThatLookLikeOptionsGoToTheProgramUntouched() {
        JobPlan plan = plan("-np", "4", "-cp", "a.jar:classes", "app.Main", "-np", "5", "--tag-output", "-x", "Y",
                "--", "@file", "-J");
        assertEquals(4, plan.np());
        assertEquals(List.of("a.jar", "classes"), plan.classPath());
        assertEquals("app.Main", plan.mainClass());
        assertEquals(List.of("-np", "5", "--tag-output", "-x", "Y", "--", "@file", "-J"), plan.programArgs());
        assertEquals(false, plan.tagOutput());
        assertEquals(Map.of(), plan.environment());
        assertEquals("4", new RankCommands("java", List.of()).launch(plan, new JobIdentity("j", "s", "127.0.0.1:1"), 3)
                .environment().get("WEFT_LOCAL_SIZE"), "all ranks run on this host");
        assertNull(plan.timeout());
    }

    @Test
    void everyOptionLandsInThePlan() {
        JobPlan plan = plan("-n", "2", "--tag-output", "--timeout", "7", "-x", "A=1=2", "-x", "HOME", "-x", "MISSING",
                "--param", "tcp_eager_limit=64k", "--param=idle_strategy=spin", "--methods", "tcp", "--report",
                "-J", "-Xmx64m", "--jvm-arg=-Dfoo=bar",
                "-J-ea", "--class-path", "lib/x.jar", "Main", "arg");
        assertEquals(2, plan.np());
        assertTrue(plan.tagOutput());
        assertEquals(Duration.ofSeconds(7), plan.timeout());
        assertEquals(Map.of("A", "1=2", "HOME", "/home/ada", "WEFT_TCP_EAGER_LIMIT", "64k",
                "WEFT_IDLE_STRATEGY", "spin", "WEFT_METHODS", "tcp", "WEFT_REPORT", "1"),
                plan.environment());
        assertEquals(List.of("-Xmx64m", "-Dfoo=bar", "-ea"), plan.jvmArgs());
        assertEquals(List.of("lib/x.jar"), plan.classPath());
        assertEquals(List.of("arg"), plan.programArgs());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("-x MISSING: not set here"), err.toString());
    }

    @Test
    void anUnknownParameterIsRefusedAndInfoListsTheKnownOnes() {
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
                () -> plan("-np", "2", "--param", "no_such_knob=1", "Main"));
        assertTrue(e.getMessage().contains("no_such_knob"), e.getMessage());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(0, WeftRun.execute(new String[] {"--info", "--param", "tcp_eager_limit=128k"},
                InputStream.nullInputStream(), print, print));
        String info = out.toString(StandardCharsets.UTF_8);
        assertTrue(info.matches("(?s).*tcp_eager_limit\\s+131072\\s+65536\\s+bytes.*"), info);
        assertTrue(info.contains("idle_strategy") && info.contains("tcp_skip_poll") && info.contains("methods"), info);
        String[] lines = info.split("\\R");
        int[] starts = {0, lines[0].indexOf("value"), lines[0].indexOf("default"), lines[0].indexOf("unit"),
            lines[0].indexOf("what it does")};
        for (String line : lines) { // every cell of the first four columns within its column, none spilling over
            for (int column = 0; column < 4; column++) {
                String cell = line.substring(starts[column], starts[column + 1]);
                assertTrue(cell.endsWith(" ") && !cell.strip().contains(" "), "column " + column + " of: " + line);
            }
        }
    }

    @Test
    void withoutClassPathTheEnvironmentsClasspathIsUsedAsJavaDoes() {
        assertEquals(List.of("env.jar"), plan("-np", "1", "Main").classPath());
    }

    @Test
    void jarModeRunsTheManifestsMainClassAndPassesEverythingAfterTheJar(@TempDir Path dir) throws IOException {
        Path jar = jarRunning(dir, "com.example.App");
        JobPlan plan = plan("-np", "3", "-jar", jar.toString(), "--timeout", "1", "-np", "9");
        assertEquals(3, plan.np());
        assertEquals("com.example.App", plan.mainClass());
        assertEquals(List.of(jar.toString()), plan.classPath());
        assertEquals(List.of("--timeout", "1", "-np", "9"), plan.programArgs());
        assertNull(plan.timeout());
    }

    @Test
    void aJavaCommandLineRunsAsUnderMpirun() {
        JobPlan plan = plan("-np", "2", "-J", "-Xss1m", "java", "-Xmx64m", "-cp", "out:lib/a.jar",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Dk=v", "Hello", "-cp", "x");
        assertEquals(2, plan.np());
        assertEquals(List.of("out", "lib/a.jar"), plan.classPath());
        assertEquals("Hello", plan.mainClass());
        assertEquals(List.of("-cp", "x"), plan.programArgs(), "after the main class, words are the program's");
        assertEquals(List.of("-Xss1m"), plan.jvmArgs());
        assertEquals(List.of("-Xmx64m", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Dk=v"),
                plan.appOf(1).jvmArgs(), "the java command's options are its app context's, after -J");
        assertEquals(rankJava("-Xss1m", "-Xmx64m", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-Dk=v", "-cp",
                "out:lib/a.jar", "Hello", "-cp", "x"), new RankCommands("/jdk/bin/java", List.of())
                .launch(plan, new JobIdentity("j", "s", "127.0.0.1:1"), 1).command());
        assertEquals(List.of("env.jar"), plan("-np", "1", "/usr/bin/java", "Main").classPath());
        assertEquals("Main", plan("-np", "1", "/usr/bin/java", "Main").mainClass());
    }

    /** {@code A : B}, as mpirun: app contexts in rank order, one world, each its own program and APPNUM. */
    @Test
    void appContextsSeparatedByAColonShareOneWorld() {
        JobPlan plan = plan("-np", "2", "-x", "ALL=1", "-cp", "a.jar", "Ocean", "o", ":", "-np", "3", "-cp", "b.jar",
                "-J", "-Xmx64m", "-x", "K=v", "Atmosphere", "-np", "9", ":", "-n", "1", "java", "-ea", "-cp", "c",
                "Coupler");
        assertEquals(6, plan.np());
        assertEquals(List.of(0, 0, 1, 1, 1, 2), java.util.stream.IntStream.range(0, 6).map(plan::appNumOf).boxed()
                .toList());
        RankCommands commands = new RankCommands("/jdk/bin/java", List.of("weft.jar"));
        JobIdentity job = new JobIdentity("job-1", "cafe", "127.0.0.1:4000");
        RankLaunch ocean = commands.launch(plan, job, 1);
        assertEquals(rankJava("-cp", "weft.jar:a.jar", "Ocean", "o"), ocean.command());
        assertEquals("0", ocean.environment().get("WEFT_APPNUM"));
        assertEquals("6", ocean.environment().get("WEFT_SIZE"));
        assertNull(ocean.environment().get("K"), "an app context's -x is its own");
        RankLaunch atmosphere = commands.launch(plan, job, 4);
        assertEquals(rankJava("-Xmx64m", "-cp", "weft.jar:b.jar", "Atmosphere", "-np", "9"), atmosphere.command(),
                "the program's own words after its main class stay its own");
        assertEquals("1", atmosphere.environment().get("WEFT_APPNUM"));
        assertEquals("v", atmosphere.environment().get("K"));
        assertEquals("1", atmosphere.environment().get("ALL"), "the first context's -x is the job's, as mpirun's");
        RankLaunch coupler = commands.launch(plan, job, 5);
        assertEquals(rankJava("-ea", "-cp", "weft.jar:c", "Coupler"), coupler.command());
        assertEquals("2", coupler.environment().get("WEFT_APPNUM"));
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        assertEquals(2, refuse(stderr, "-np", "2", "Ocean", ":", "-cp", "b.jar", "Atmosphere"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("app context 1"), stderr.toString());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "2", "Ocean", ":", "-np", "2"));
    }

    /** Sites and app contexts each cover the ranks in order; a native site of two contexts is mpirun's MPMD form. */
    @Test
    void appContextsAcrossSitesAndANativeSiteOfTwoContexts() {
        JobPlan plan = plan("--site", "a:3", "--site", "b:2", "-cp", "a.jar", "Ocean", ":", "-np", "3", "-cp",
                "b.jar", "Atmosphere");
        assertEquals(5, plan.np());
        assertEquals(2, plan.apps().getFirst().np(), "the first context takes the sites' ranks the others leave");
        assertThrows(CommandLine.ParameterException.class, () -> plan("--site", "a:3", "--site", "b:2", "-np", "3",
                "Ocean", ":", "-np", "3", "Atmosphere"));
        Site nativeA = new Site("a", 0, 3, List.of(), Path.of("/opt/ompi/bin/mpirun"));
        RankLaunch launch = new RankCommands("/jdk/bin/java", List.of("weft.jar"))
                .launchSite(plan, new JobIdentity("job-1", "cafe", "127.0.0.1:4000"), nativeA, null);
        List<String> expected = new ArrayList<>(List.of("/opt/ompi/bin/mpirun", "-q", "--oversubscribe", "--bind-to",
                "none", "-np", "2", "env", "WEFT_APPNUM=0", "WEFT_MAXPROCS=2"));
        expected.addAll(rankJava("-cp", "weft.jar:a.jar", "Ocean"));
        expected.addAll(List.of(":", "-np", "1", "env", "WEFT_APPNUM=1", "WEFT_MAXPROCS=3"));
        expected.addAll(rankJava("-cp", "weft.jar:b.jar", "Atmosphere"));
        assertEquals(expected, launch.command());
        Site nativeB = new Site("b", 3, 2, List.of(), Path.of("/opt/ompi/bin/mpirun"));
        RankLaunch one = new RankCommands("/jdk/bin/java", List.of("weft.jar"))
                .launchSite(plan, new JobIdentity("job-1", "cafe", "127.0.0.1:4000"), nativeB, null);
        assertEquals("1", one.environment().get("WEFT_APPNUM"), "a site of one context: in its environment");
        assertEquals(rankJava("-cp", "weft.jar:b.jar", "Atmosphere"), one.command().subList(9, one.command().size()));
    }

    @Test
    void aJavaCommandLineWithAJarOrWithoutAMainClass(@TempDir Path dir) throws IOException {
        Path jar = jarRunning(dir, "com.example.App");
        JobPlan plan = plan("-np", "2", "java", "-ea", "-jar", jar.toString(), "-ea");
        assertEquals("com.example.App", plan.mainClass());
        assertEquals(List.of(jar.toString()), plan.classPath());
        assertEquals(List.of("-ea"), plan.appOf(0).jvmArgs());
        assertEquals(List.of("-ea"), plan.programArgs());
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        assertEquals(2, refuse(stderr, "-np", "2", "java", "-cp", "out"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("java: missing the main class"), stderr.toString());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "2", "java", "-m", "app/app.Main"));
    }

    @Test
    void withoutNpTheHostsSlotsGiveTheRanks(@TempDir Path dir) throws IOException {
        JobPlan plan = plan("--host", "h1:2,h2:2", "-cp", "out", "Ring");
        assertEquals(4, plan.np());
        assertEquals(List.of("h1", "h1", "h2", "h2"), plan.rankHosts());
        Path hostfile = Files.writeString(dir.resolve("hosts"), "h1 slots=3\nh2\n");
        assertEquals(4, plan("--hostfile", hostfile.toString(), "Main").np());
        assertEquals(List.of("h1", "h1", "h2", "h2", "h1", "h1"),
                plan("-n", "6", "--oversubscribe", "--host", "h1:2,h2:2", "Main").rankHosts());
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        assertEquals(2, refuse(stderr, "-np", "5", "--host", "h1:2,h2:2", "Main"), "more ranks than slots");
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("-np 5 is more than the 4 slots"),
                stderr.toString());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "5", "--hostfile", hostfile.toString(), "Main"));
        stderr.reset();
        assertEquals(2, refuse(stderr, "Main"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("missing -np N"), stderr.toString());
    }

    @Test
    void npernodeIsRanksPerHostNotMinusN() {
        JobPlan plan = plan("-npernode", "1", "--host", "h1:2,h2:2", "Main");
        assertEquals(2, plan.np());
        assertEquals(List.of("h1", "h2"), plan.rankHosts());
        assertEquals(3, plan("--npernode", "3", "Main").np(), "this host alone");
        assertEquals(List.of("h1", "h1", "h2"), plan("-np", "3", "-npernode", "2", "-H", "h1,h2", "Main").rankHosts());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-npernode", "0", "Main"));
    }

    @Test
    void mpirunsPlacementOptionsAreHonouredAndTheOthersWarnedAbout() {
        assertEquals(List.of("h1", "h2", "h1", "h2"),
                plan("--map-by", "node", "--host", "h1:2,h2:2", "Main").rankHosts());
        assertEquals(List.of("h1", "h1", "h2", "h2"),
                plan("--map-by", "slot", "--bind-to", "none", "--host", "h1:2,h2:2", "Main").rankHosts());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "--map-by", "ppr:2:socket", "-np", "2", "Main"));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        // a one-rank job whose main class does not exist: it fails after the map and the warnings are printed
        int status = WeftRun.execute(new String[] {"--display-map", "--bind-to", "socket", "--report-bindings",
            "--mca", "btl", "self,vader", "--mca", "pml", "ob1", "-np", "1", "--timeout", "60", "-cp",
            "/no/such.jar", "NoSuchMain"}, InputStream.nullInputStream(),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        String warned = stderr.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("rank 0 on localhost"), printed);
        assertTrue(warned.contains("--bind-to socket: Weft binds to core, hwthread or none"), warned);
        assertEquals(Map.of("WEFT_BIND_TO", "core", "WEFT_REPORT_BINDINGS", "1"), plan("--bind-to", "core",
                "--report-bindings", "-np", "1", "Main").environment(), "the ranks bind themselves");
        assertEquals(Map.of("WEFT_BIND_TO", "none"), plan("--bind-to", "none", "-np", "1", "Main").environment());
        assertEquals(Map.of("WEFT_BIND_TO", "none"), plan("--bind-to", "socket", "-np", "1", "Main").environment(),
                "a unit Weft does not honour leaves the ranks unbound, as the warning says");
        assertEquals(Map.of(), plan("-np", "1", "Main").environment(), "no --bind-to: the ranks choose");
        assertEquals(1, warned.split("--mca", -1).length - 1, "one warning for all --mca: " + warned);
        assertTrue(status != 2, "accepted: " + warned);
    }

    @Test
    void benchHelpDescribesTheBenchmarkWithoutStartingIt() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(0, Weft.execute(new String[] {"bench", "latency", "--help"}, InputStream.nullInputStream(),
                print, print));
        String help = out.toString(StandardCharsets.UTF_8);
        assertTrue(help.startsWith("latency: osu_latency") && help.contains("-m MAX_BYTES"), help);
        assertFalse(help.contains("Exception"), help);
    }

    @Test
    void everyRankLearnsItsLocalRankOnItsHost() {
        JobPlan plan = plan("-np", "5", "--oversubscribe", "--host", "h1:2,h2:2", "Main"); // h1 h1 h2 h2, h1
        RankCommands commands = new RankCommands("java", List.of());
        JobIdentity job = new JobIdentity("j", "s", "127.0.0.1:1");
        List<String> local = new ArrayList<>();
        for (int rank = 0; rank < 5; rank++) {
            local.add(commands.launch(plan, job, rank, null).environment().get(RankCommands.ENV_LOCAL_RANK));
        }
        assertEquals(List.of("0", "1", "0", "1", "2"), local);
    }

    @Test
    void nonsenseIsRefusedWithStatus2AndAReason() {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        assertEquals(2, refuse(stderr, "-np", "2"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("missing MAIN"), stderr.toString());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "Main"));              // no -np
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "0", "Main"));
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "2", "--param", "novalue", "Main"));
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "2", "--timeout", "0", "Main"));
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "2", "--bogus", "Main"));
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "2", "-jar", "/no/such.jar"));
    }

    @Test
    void helpAndVersionExitZero() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(0, WeftRun.execute(new String[] {"--help"}, InputStream.nullInputStream(), print, print));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--tag-output"));
        out.reset();
        assertEquals(0, WeftRun.execute(new String[] {"--version"}, InputStream.nullInputStream(), print, print));
        String version = out.toString(StandardCharsets.UTF_8);
        assertTrue(version.startsWith("Weft " + WeftVersion.version() + System.lineSeparator()), version);
        assertFalse(WeftVersion.version().equals("unknown"), "version.properties is filtered by the build");
        assertTrue(version.contains("JDK " + Runtime.version() + " (")
                && version.contains(System.getProperty("java.home")), version);
        out.reset();
        assertEquals(0, Weft.execute(new String[] {"--version"}, InputStream.nullInputStream(), print, print));
        assertEquals(version, out.toString(StandardCharsets.UTF_8), "weft --version = weftrun --version");
    }

    @Test
    void weftRunIsWeftrun() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(2, Weft.execute(new String[] {"run", "-np", "1"}, InputStream.nullInputStream(), print, print));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("missing MAIN"), out.toString());
        out.reset();
        assertEquals(0, Weft.execute(new String[] {"info"}, InputStream.nullInputStream(), print, print));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("JDK " + Runtime.version()), out.toString());
    }

    @Test
    void weftBenchListsTheSuiteAndRefusesUnknownNames() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(0, Weft.execute(new String[] {"bench", "--list"}, InputStream.nullInputStream(), print, print));
        String listed = out.toString(StandardCharsets.UTF_8);
        for (String name : List.of("latency", "bw", "bibw", "pphandle", "ppmulti", "selfcost", "steady", "wake",
                "threads", "org.weft.bench.path.SelfSendRecv")) {
            assertTrue(listed.contains(name), listed);
        }
        out.reset();
        assertEquals(2, Weft.execute(new String[] {"bench"}, InputStream.nullInputStream(), print, print));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("missing NAME"), out.toString());
    }

    @Test
    void weftBenchIsWeftrunWithTwoRanksAndTheBenchmarksJar() {
        Bench bench = new Bench(Map.of(), InputStream.nullInputStream(), System.out, System.err);
        new CommandLine(bench).setStopAtPositional(true)
                .parseArgs("--param", "methods=tcp", "latency", "-m", "4096", "--heap");
        assertEquals(List.of("-np", "2", "--param", "methods=tcp", "--jvm-arg=-Dweft.bench.results=true", "-cp",
                "b.jar", "org.weft.bench.osu.Latency",
                "-m", "4096", "--heap"), bench.weftRunArguments(Path.of("b.jar")));
        Bench placed = new Bench(Map.of(), InputStream.nullInputStream(), System.out, System.err);
        new CommandLine(placed).setStopAtPositional(true).parseArgs("tls", "-r", "2");
        assertEquals(List.of("--site", "a:2", "--site", "b:1", "--site-launcher", "a=weft", "--site-launcher",
                "b=weft", "--param", "methods=self,tcp", "--param", "tcp_path_defaults=streams=1",
                "--jvm-arg=-Dweft.bench.results=true", "-cp", "b.jar", "org.weft.bench.tls.TlsCost", "-r", "2"),
                placed.weftRunArguments(Path.of("b.jar")));
        Bench across = new Bench(Map.of(), InputStream.nullInputStream(), System.out, System.err);
        new CommandLine(across).setStopAtPositional(true).parseArgs("--rsh", "bin/weft-wan exec", "--site", "a:1:h1",
                "--site", "b:1:h2", "--path", "a:b", "max=16", "streams", "-m", "8m");
        assertEquals(List.of("--rsh", "bin/weft-wan exec", "--site", "a:1:h1", "--site", "b:1:h2", "--path", "a:b",
                "max=16", "--jvm-arg=-Dweft.bench.results=true", "-cp", "b.jar", "org.weft.bench.wan.StreamsSweep",
                "-m", "8m"), across.weftRunArguments(Path.of("b.jar")));
        Bench unknown = new Bench(Map.of(), InputStream.nullInputStream(), System.out, System.err);
        new CommandLine(unknown).setStopAtPositional(true).parseArgs("nosuch");
        assertThrows(CommandLine.ParameterException.class, () -> unknown.weftRunArguments(Path.of("b.jar")));
        Bench located = new Bench(Map.of("WEFT_BENCH_JAR", "/x/b.jar"), InputStream.nullInputStream(),
                System.out, System.err);
        assertEquals(Path.of("/x/b.jar"), located.benchmarksJar());
    }

    @Test
    void rankCommandsPutWeftsJarsFirstAndTheWorldInTheEnvironment() {
        JobPlan plan = plan("-np", "2", "-cp", "app.jar", "-J", "-Xmx32m", "-x", "A=1", "Main", "x");
        RankCommands commands = new RankCommands("/jdk/bin/java", List.of("weft.jar", "netty.jar"));
        RankLaunch launch = commands.launch(plan, new JobIdentity("job-1", "cafe", "127.0.0.1:4000"), 1);
        assertEquals(rankJava("-Xmx32m", "-cp", "weft.jar:netty.jar:app.jar", "Main", "x"), launch.command());
        assertEquals(List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,mpi.Comm::receive",
                "-XX:CompileCommand=dontinline,mpi.Comm::sendReceive",
                "-XX:CompileCommand=CompileThresholdScaling,java/*.*,20.0",
                "-XX:CompileCommand=CompileThresholdScaling,javax/*.*,20.0",
                "-XX:CompileCommand=CompileThresholdScaling,jdk/*.*,20.0",
                "-XX:CompileCommand=CompileThresholdScaling,sun/*.*,20.0",
                "-XX:CompileCommand=CompileThresholdScaling,jdk/internal/foreign/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,java/lang/invoke/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,jdk/internal/misc/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,java/nio/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,java/util/concurrent/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,jdk/internal/util/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,sun/nio/ch/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,sun/security/ssl/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,javax/net/ssl/*.*,1.0",
                "-XX:CompileCommand=CompileThresholdScaling,javax/crypto/*.*,1.0",
                "-Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.EPollSelectorProvider",
                "-Djdk.includeInExceptions=" + java.security.Security.getProperty("jdk.includeInExceptions")),
                RankCommands.WEFT_JVM_OPTIONS, "the JDK's own selector provider (this JDK 25, on Linux) and its"
                        + " exception text setting");
        assertEquals(Map.of("WEFT_APPNUM", "0", "WEFT_MAXPROCS", "2", "WEFT_UNIVERSE_SIZE",
                Integer.toString(Math.max(2, Runtime.getRuntime().availableProcessors()))),
                Map.of("WEFT_APPNUM", launch.environment().get("WEFT_APPNUM"), "WEFT_MAXPROCS",
                launch.environment().get("WEFT_MAXPROCS"), "WEFT_UNIVERSE_SIZE",
                launch.environment().get("WEFT_UNIVERSE_SIZE")));
        Map<String, String> world = new java.util.HashMap<>(launch.environment());
        world.keySet().removeAll(List.of("WEFT_APPNUM", "WEFT_MAXPROCS", "WEFT_UNIVERSE_SIZE"));
        assertEquals(Map.of("A", "1", "WEFT_LOCAL_SIZE", "2", "WEFT_LOCAL_RANK", "1", "WEFT_RANK", "1",
                "WEFT_SIZE", "2", "WEFT_JOB_ID", "job-1", "WEFT_BOOTSTRAP", "127.0.0.1:4000", "WEFT_SECRET", "cafe"),
                world);
        String secret = JobIdentity.newSecret();
        assertTrue(secret.matches("[0-9a-f]{64}"), secret);
    }

    /**
     * The ranks' AOT cache: every rank reads it when it is there (and the JDK keeps quiet if it cannot use it); nothing
     * while it is missing; training, rank 0 alone writes it (two writers would spoil it).
     */
    @Test
    void ranksReadTheAotCacheWhenItIsThereAndRankZeroTrainsIt(@TempDir Path dir) throws IOException {
        JobPlan plan = plan("-np", "2", "-cp", "app.jar", "Main");
        JobIdentity job = new JobIdentity("job-1", "cafe", "127.0.0.1:4000");
        RankCommands commands = new RankCommands("/jdk/bin/java", List.of("weft.jar"));
        Map<String, String> environment = Map.of("WEFT_AOT_DIR", dir.toString());
        Path cache = dir.resolve(AotCache.RANK_CACHE);
        assertEquals(rankJava("-cp", "weft.jar:app.jar", "Main"),
                commands.withAotCache(AotCache.of(environment)).launch(plan, job, 1).command(), "not trained yet");
        Files.writeString(cache, "a cache");
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(rankJava("-XX:AOTCache=" + cache, "-Xlog:aot=off", "-XX:+UnlockDiagnosticVMOptions",
                    "-XX:ArchiveRelocationMode=0", "-cp", "weft.jar:app.jar", "Main"),
                    commands.withAotCache(AotCache.of(environment)).launch(plan, job, rank).command());
        }
        RankCommands training = commands.withAotCache(AotCache.of(Map.of("WEFT_AOT_DIR", dir.toString(),
                "WEFT_AOT_TRAIN", "1")));
        assertEquals(rankJava("-XX:AOTCacheOutput=" + cache, "-cp", "weft.jar:app.jar", "Main"),
                training.launch(plan, job, 0).command());
        assertEquals(rankJava("-cp", "weft.jar:app.jar", "Main"), training.launch(plan, job, 1).command());
        assertEquals(rankJava("-cp", "weft.jar:app.jar", "Main"),
                commands.withAotCache(AotCache.of(Map.of())).launch(plan, job, 0).command(), "no directory: none");
    }

    @Test
    void sitesSetTheSizeAndEveryRankLearnsItsSite() {
        JobPlan plan = plan("--site", "a:1", "--site", "b:2", "-cp", "app.jar", "Main");
        assertEquals(3, plan.np());
        RankCommands commands = new RankCommands("/jdk/bin/java", List.of("weft.jar"));
        List<RankLaunch> launches = commands.launches(plan, new JobIdentity("job-1", "cafe", "127.0.0.1:4000"), null);
        assertEquals(List.of("3", "3", "3"), launches.stream().map(l -> l.environment().get("WEFT_LOCAL_SIZE")).toList(),
                "every rank of every site is on this host");
        assertEquals(3, launches.size(), "no mpirun on this PATH: one process per rank");
        assertEquals(List.of("a", "b", "b"), launches.stream().map(l -> l.environment().get("WEFT_SITE")).toList());
        assertEquals(List.of("0", "1", "2"), launches.stream().map(l -> l.environment().get("WEFT_RANK")).toList());
        assertEquals(3, plan("-np", "3", "--site", "a:1", "--site", "b:2", "Main").np());
    }

    @Test
    void aNativeSiteIsOneMpirunWithARankBaseAndNoRank() {
        JobPlan plan = plan("--tag-output", "-J", "-Xmx32m", "--site", "a:1", "--site", "b:2", "-cp", "app.jar",
                "Main", "x");
        Site nativeB = new Site("b", 1, 2, List.of(), Path.of("/opt/ompi/bin/mpirun"));
        RankLaunch launch = new RankCommands("/jdk/bin/java", List.of("weft.jar"))
                .launchSite(plan, new JobIdentity("job-1", "cafe", "127.0.0.1:4000"), nativeB, null);
        assertEquals(List.of("/opt/ompi/bin/mpirun", "-q", "-np", "2", "--oversubscribe", "--bind-to", "none",
                "--tag-output", "--stdin", "none"), launch.command().subList(0, 10));
        assertEquals(rankJava("-Xmx32m", "-cp", "weft.jar:app.jar", "Main", "x"),
                launch.command().subList(10, launch.command().size()));
        assertEquals("1", launch.environment().get("WEFT_RANK_BASE"));
        assertEquals("b", launch.environment().get("WEFT_SITE"));
        assertEquals("3", launch.environment().get("WEFT_SIZE"));
        assertNull(launch.environment().get("WEFT_RANK"));
        assertEquals("the mpirun of site b, ranks 1-2", launch.describe());
    }

    /** An mpirun whose --version says HYDRA (a script here) gets Hydra's options; its lines are tagged by rank. */
    @Test
    void anMpichSiteIsOneMpiexecWithHydrasOptions(@TempDir Path dir) throws IOException {
        Path hydra = Files.writeString(dir.resolve("mpiexec.hydra"), "#!/bin/sh\necho 'HYDRA build details:'\n");
        assertTrue(hydra.toFile().setExecutable(true));
        JobPlan plan = plan("--tag-output", "--site", "a:1", "--site", "b:2", "-cp", "app.jar", "Main");
        Site mpichB = new Site("b", 1, 2, List.of("n1", "n2"), hydra);
        RankLaunch launch = new RankCommands("/jdk/bin/java", List.of("weft.jar"))
                .launchSite(plan, new JobIdentity("job-1", "cafe", "127.0.0.1:4000"), mpichB, null);
        assertEquals(List.of(hydra.toString(), "-np", "2", "-bind-to", "none", "-prepend-rank", "-hosts",
                "n1:1,n2:1"), launch.command().subList(0, 8));
        assertEquals(rankJava("-cp", "weft.jar:app.jar", "Main"), launch.command().subList(8,
                launch.command().size()));
        assertEquals(MpirunFlavour.HYDRA, launch.mpirun());
        assertEquals("1", launch.environment().get("WEFT_RANK_BASE"));
        assertNull(launch.environment().get("OMPI_ALLOW_RUN_AS_ROOT"));
    }

    /** A remote shell named with --rsh reaches a site's mpirun when the site spans hosts; else mpirun keeps its own. */
    @Test
    void aNamedRemoteShellGoesToTheMpirunOfASiteOnSeveralHosts(@TempDir Path dir) throws IOException {
        JobPlan plan = plan("--site", "a:1", "--site", "b:2", "-cp", "app.jar", "Main");
        JobIdentity job = new JobIdentity("job-1", "cafe", "127.0.0.1:4000");
        RankCommands commands = new RankCommands("/jdk/bin/java", List.of("weft.jar"));
        RankCommands withRsh = commands.withSiteRemoteShell(List.of("bin/weft-netns", "exec"));
        Site openMpi = new Site("b", 1, 2, List.of("n1", "n2"), Path.of("/opt/ompi/bin/mpirun"));
        String agent = String.join(" ", withRsh.launchSite(plan, job, openMpi, null).command());
        assertTrue(agent.contains("--host n1:1,n2:1 --mca plm_rsh_agent bin/weft-netns exec -x "), agent);
        assertFalse(String.join(" ", commands.launchSite(plan, job, openMpi, null).command()).contains("plm_rsh"));
        Site oneHost = new Site("b", 1, 2, List.of("n1", "n1"), Path.of("/opt/ompi/bin/mpirun"));
        assertFalse(String.join(" ", withRsh.launchSite(plan, job, oneHost, null).command()).contains("plm_rsh"),
                "one host: mpirun starts nothing remotely");

        Path hydra = Files.writeString(dir.resolve("mpiexec.hydra"), "#!/bin/sh\necho 'HYDRA build details:'\n");
        assertTrue(hydra.toFile().setExecutable(true));
        Site mpich = new Site("b", 1, 2, List.of("n1", "n2"), hydra);
        List<String> hydraCommand = commands.withSiteRemoteShell(List.of("/usr/local/bin/my-ssh"))
                .launchSite(plan, job, mpich, null).command();
        assertTrue(String.join(" ", hydraCommand).contains("-hosts n1:1,n2:1 -launcher rsh -launcher-exec "
                + "/usr/local/bin/my-ssh /jdk/bin/java"), hydraCommand.toString());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> withRsh.launchSite(plan, job, mpich, null));
        assertTrue(refused.getMessage().contains("Hydra takes its remote shell as one program"),
                refused.getMessage());
    }

    @Test
    void aHostfileWithSiteLabelsAddsSitesAfterTheSiteOptions(@TempDir Path dir) throws IOException {
        Path hostfile = Files.writeString(dir.resolve("hosts"), "localhost slots=2 site=b\n");
        JobPlan plan = plan("--site", "a:1", "--hostfile", hostfile.toString(), "Main");
        assertEquals(3, plan.np());
        assertEquals(List.of("a", "b"), plan.sites().stream().map(Site::name).toList());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "--hostfile", dir.resolve("none").toString(), "Main"));
    }

    @Test
    void relaysServeTheJobsSitesFromTheCommandLineOrAHostfilesGatewayLines(@TempDir Path dir) throws IOException {
        Hostfile file = Hostfile.parse(List.of("n1 slots=2 site=a", "gw-a gateway=a", "n2 site=b"));
        assertEquals(List.of(new RelayPlacement("a", "gw-a")), file.gateways());
        assertEquals(List.of("a:2:n1,n1", "b:1:n2"), file.siteOptions());
        JobPlan plan = plan("--site", "a:1", "--site", "b:1", "Main");
        assertEquals(List.of(new RelayPlacement("b", "")), RelayPlacement.checked(List.of(RelayPlacement.parse("b")),
                plan.sites()));
        RankLaunch relay = RankCommands.ofThisJvm().launchRelay(plan, new JobIdentity("job", "s3cret", "127.0.0.1:1"),
                RelayPlacement.parse("b=gw-b"));
        assertEquals("the relay of site b on gw-b", relay.describe());
        assertEquals("org.weft.mm.relay.RelayMain", relay.command().getLast());
        assertEquals("s3cret", relay.environment().get("WEFT_SECRET"));
        assertEquals("b", relay.environment().get("WEFT_SITE"));
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        assertEquals(2, refuse(stderr, "--site", "a:1", "--relay", "c=gw", "Main"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("--relay c: the job has no site c"),
                stderr.toString());
        stderr.reset();
        Path hostfile = Files.writeString(dir.resolve("hosts"), "gw gateway=a\nlocalhost site=a\n");
        assertEquals(2, refuse(stderr, "--hostfile", hostfile.toString(), "--relay", "a=gw2", "Main"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("site a has two relays"), stderr.toString());
    }

    @Test
    void badSitesAreRefusedWithStatus2AndAReason() {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        assertEquals(2, refuse(stderr, "-np", "3", "--site", "a:2", "--site", "b:2", "Main"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("-np 3 does not match the 4 ranks"),
                stderr.toString());
        stderr.reset();
        assertEquals(2, refuse(stderr, "--site", "a", "Main"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("--site a: expected NAME:NP"), stderr.toString());
        assertEquals(2, refuse(new ByteArrayOutputStream(), "-np", "2", "--site-launcher", "a=weft", "Main"));
    }

    @Test
    void hostsPlaceRanksBySlotAndRanksElsewhereLearnTheirHost() {
        JobPlan plan = plan("-np", "3", "--host", "localhost:2,n2", "-cp", "app.jar", "Main");
        assertEquals(List.of("", "", "n2"), plan.rankHosts());
        RankCommands commands = new RankCommands("/jdk/bin/java", List.of("weft.jar"));
        List<RankLaunch> launches = commands.launches(plan, new JobIdentity("job-1", "cafe", "10.0.0.1:4000"), null);
        assertEquals(List.of(false, false, true), launches.stream().map(RankLaunch::isRemote).toList());
        assertEquals("n2", launches.get(2).environment().get("WEFT_HOST"));
        assertNull(launches.get(0).environment().get("WEFT_HOST"), "ranks here compare this machine's name");
        assertEquals(List.of("2", "2", "1"), launches.stream().map(l -> l.environment().get("WEFT_LOCAL_SIZE")).toList());

        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        assertEquals(2, refuse(stderr, "--site", "a:2", "--host", "n1", "Main"));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains("--host places the ranks of a job without sites"),
                stderr.toString(StandardCharsets.UTF_8));
    }

    /** A rank's java command: the JDK's java, Weft's JVM options, then {@code rest}. */
    private static List<String> rankJava(String... rest) {
        List<String> command = new ArrayList<>(List.of("/jdk/bin/java"));
        command.addAll(RankCommands.WEFT_JVM_OPTIONS);
        command.addAll(List.of(rest));
        return command;
    }
}
