package org.weft.launcher.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.weft.launcher.bench.BenchFiles;
import org.weft.launcher.bench.CReference;
import org.weft.launcher.bench.CTwin;
import org.weft.launcher.bench.Progress;
import org.weft.launcher.bench.ResultCapture;
import org.weft.launcher.bench.ResultLines;
import org.weft.launcher.bench.ResultTable;
import org.weft.launcher.bench.RunComparison;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code weft bench NAME [ARGS]}: runs one of Weft's benchmarks as a {@code weftrun} job of 2 ranks (e.g.
 * {@code weft bench latency -m 4096} is {@code weftrun -np 2 -cp BENCHMARKS_JAR org.weft.bench.osu.Latency -m
 * 4096}). The benchmarks jar is {@code $WEFT_BENCH_JAR} if set, else {@code benchmarks-*.jar} beside the
 * launcher's jar (an installed {@code lib/}), else {@code benchmarks/target/benchmarks-*.jar} of the build tree
 * the launcher comes from; Weft's own jars reach the ranks as for any job.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run one of Weft's benchmarks as a weftrun job (2 ranks).",
        customSynopsis = {"weft bench [OPTIONS] NAME [ARGS...]", "       weft bench --list",
                "       weft bench compare A.csv [B.csv...] [--plot FILE] [--csv FILE]"},
        footerHeading = "%n",
        footer = {"JMH microbenchmarks of the internals run in one JVM, not through weftrun:",
                "  java -cp 'benchmarks/target/benchmarks-VERSION.jar:benchmarks/target/lib/*' "
                        + "org.openjdk.jmh.Main [JMH options]"})
final class Bench implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** The property that has a benchmark print its table for us ({@code org.weft.bench.Results}). */
    static final String RESULTS_PROPERTY = "weft.bench.results";

    /**
     * One benchmark {@code weft bench} knows; {@code placement} replaces {@code -np N} for one that needs its ranks
     * laid out (sites, methods).
     */
    record Benchmark(String name, String mainClass, String description, List<String> placement) {
        Benchmark(String name, String mainClass, String description) {
            this(name, mainClass, description, List.of());
        }
    }

    /** The benchmarks, in the order {@code --list} shows them. */
    static final List<Benchmark> BENCHMARKS = List.of(
            new Benchmark("latency", "org.weft.bench.osu.Latency", "osu_latency: one-way latency by ping-pong"),
            new Benchmark("bw", "org.weft.bench.osu.Bandwidth", "osu_bw: bandwidth of windows of 64 sends"),
            new Benchmark("bibw", "org.weft.bench.osu.BiBandwidth", "osu_bibw: bandwidth of both ways at once"),
            new Benchmark("bcast", "org.weft.bench.osu.Bcast", "osu_bcast: MPI_Bcast latency (use -np)"),
            new Benchmark("allreduce", "org.weft.bench.osu.Allreduce", "osu_allreduce: MPI_Allreduce latency"),
            new Benchmark("alltoall", "org.weft.bench.osu.Alltoall", "osu_alltoall: MPI_Alltoall latency"),
            new Benchmark("allgather", "org.weft.bench.osu.Allgather", "osu_allgather: MPI_Allgather latency"),
            new Benchmark("gather", "org.weft.bench.osu.Gather", "osu_gather: MPI_Gather latency (to rank 0)"),
            new Benchmark("scatter", "org.weft.bench.osu.Scatter",
                    "osu_scatter: MPI_Scatter latency (from rank 0)"),
            new Benchmark("reduce", "org.weft.bench.osu.Reduce", "osu_reduce: MPI_Reduce latency (to rank 0)"),
            new Benchmark("barrier", "org.weft.bench.osu.Barrier", "osu_barrier: MPI_Barrier latency (one row, 0 B)"),
            new Benchmark("reduce_scatter_block", "org.weft.bench.osu.ReduceScatterBlock",
                    "osu_reduce_scatter_block: MPI_Reduce_scatter_block latency (size: each rank's block)"),
            new Benchmark("iallreduce", "org.weft.bench.osu.Iallreduce", "MPI_Iallreduce + MPI_Wait latency"),
            new Benchmark("ibarrier", "org.weft.bench.osu.Ibarrier", "MPI_Ibarrier + MPI_Wait latency (one row, 0 B)"),
            new Benchmark("ireduce", "org.weft.bench.osu.Ireduce", "MPI_Ireduce + MPI_Wait latency (to rank 0)"),
            new Benchmark("ireduce_scatter_block", "org.weft.bench.osu.IreduceScatterBlock",
                    "MPI_Ireduce_scatter_block + MPI_Wait latency (size: each rank's block)"),
            new Benchmark("ibcast", "org.weft.bench.osu.Ibcast", "MPI_Ibcast + MPI_Wait latency (from rank 0)"),
            new Benchmark("iallgather", "org.weft.bench.osu.Iallgather", "MPI_Iallgather + MPI_Wait latency"),
            new Benchmark("ialltoall", "org.weft.bench.osu.Ialltoall", "MPI_Ialltoall + MPI_Wait latency"),
            new Benchmark("igather", "org.weft.bench.osu.Igather", "MPI_Igather + MPI_Wait latency (to rank 0)"),
            new Benchmark("iscatter", "org.weft.bench.osu.Iscatter", "MPI_Iscatter + MPI_Wait latency (from rank 0)"),
            new Benchmark("put_latency", "org.weft.bench.osu.PutLatency",
                    "osu_put_latency: MPI_Put with flush (-s lock|fence for the others)"),
            new Benchmark("get_latency", "org.weft.bench.osu.GetLatency",
                    "osu_get_latency: MPI_Get with flush (-s lock|fence for the others)"),
            new Benchmark("pphandle", "org.weft.bench.nexus.PpHandle",
                    "Nexus pphandle: raw RSR ping-pong below MPI"),
            new Benchmark("ppmulti", "org.weft.bench.nexus.PpMulti",
                    "Nexus ppmulti: shm ping-pong beside tcp load"),
            new Benchmark("selfcost", "org.weft.bench.path.SelfSendRecv",
                    "software cost of a send+recv to oneself (no cross-core traffic)"),
            new Benchmark("windowcalls", "org.weft.bench.path.WindowCalls",
                    "software cost of 8 B put/get + flush, lock + put + unlock, fence on a window of one process"),
            new Benchmark("steady", "org.weft.bench.path.SteadyLatency",
                    "a long ping-pong of one size: median one-way of its steady windows"),
            new Benchmark("warmup", "org.weft.bench.path.WarmUp",
                    "a fresh job's first seconds of ping-pong, window by window (-m bytes, -w ms, -n windows)"),
            new Benchmark("first", "org.weft.bench.path.FirstMessages",
                    "a fresh job's first round trips one by one, per window of 100 (-m bytes, -n round trips)"),
            new Benchmark("wake", "org.weft.bench.path.WakeLatency",
                    "how late a receive that waited (parked) sees its message"),
            new Benchmark("threads", "org.weft.bench.path.ThreadedRoundTrips",
                    "round trips from several threads at once (THREAD_MULTIPLE) against one"),
            new Benchmark("streams", "org.weft.bench.wan.StreamsSweep",
                    "MPWide's Fig. 2: throughput vs 1-64 streams, 8/64/512 MiB, and auto (two sites; --site to place)",
                    List.of("--site", "a:1", "--site", "b:1", "--site-launcher", "a=weft", "--site-launcher",
                            "b=weft")),
            new Benchmark("compress", "org.weft.bench.wan.CompressedTransfer",
                    "64 MiB compressible then random, one message (tcp_compress=off, lz4, auto; --path a:b min=1g)"),
            new Benchmark("relay", "org.weft.bench.nexus.RelayVsDirect",
                    "the relay's cost: 0 B one-way and stream throughput, direct tcp against relayed",
                    List.of("--site", "a:1", "--site", "b:1", "--site-launcher", "a=weft", "--site-launcher", "b=weft",
                            "--relay", "b", "--methods", "self,tcp,relay", "--param", "tcp_aggregate=off")),
            new Benchmark("ringfloor", "org.weft.mm.module.shm.RingFloor",
                    "one-way of a cache line, a fresh line, and the bare shm ring (0 B and -m bytes)"),
            new Benchmark("tls", "org.weft.bench.tls.TlsCost",
                    "TLS against plaintext over tcp: sites a = ranks 0-1, b = rank 2 on this host (-m, -i, -r, -w, -p)",
                    // One stream per path: the target is per connection, and the 1 MiB rounds' stripes (up to 32
                    // connections to the last rank, which rank 1 does not have) made every later poll of both read
                    // them: 0 B one-way 7 -> 20-40 us, plaintext included (docs/performance.md, sixth session; idle
                    // stripes are no longer read by every poll since).
                    List.of("--site", "a:2", "--site", "b:1", "--site-launcher", "a=weft", "--site-launcher",
                            "b=weft", "--param", "methods=self,tcp", "--param", "tcp_path_defaults=streams=1")));

    @Option(names = "--list", description = "List the benchmarks and exit.")
    private boolean list;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N", description = "Number of ranks (default: 2).")
    private int np = 2;

    @Option(names = "--param", paramLabel = "NAME=VALUE",
            description = "Set Weft parameter NAME for the ranks, as weftrun --param (e.g. methods=tcp).")
    private List<String> params = new ArrayList<>();

    @Option(names = "--site", paramLabel = "NAME:NP[:HOSTS]",
            description = "Place the ranks in sites, as weftrun --site (replaces -np and a benchmark's own placement).")
    private List<String> sites = new ArrayList<>();

    @Option(names = "--rsh", paramLabel = "COMMAND", description = "The remote shell for the sites' hosts, as weftrun"
            + " --rsh (e.g. \"bin/weft-wan exec\").")
    private String rsh;

    @Option(names = "--path", arity = "2", paramLabel = "SITES SETTINGS",
            description = "A wide-area path's settings, as weftrun --path (e.g. --path a:b streams=auto).")
    private List<String> paths = new ArrayList<>();

    @Option(names = {"-J", "--jvm-arg"}, paramLabel = "ARG", description = "An extra JVM option for the ranks.")
    private List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Kill the job after this many seconds.")
    private Long timeoutSeconds;

    @Option(names = "--csv", paramLabel = "FILE",
            description = "Write the benchmark's figures to FILE as CSV (also accepted after NAME).")
    private Path csv;

    @Option(names = "--plot", paramLabel = "FILE",
            description = "Draw the benchmark's figures into FILE as a PNG plot (also accepted after NAME).")
    private Path plot;

    @Option(names = "--reference", description = "Also run Open MPI's C twin of the benchmark (needs mpicc and "
            + "mpirun) and put both in the CSV and the plot (also accepted after NAME).")
    private boolean reference;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "The benchmark and its arguments.")
    private List<String> command = new ArrayList<>();

    private final Map<String, String> environment;
    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;

    Bench(Map<String, String> environment, InputStream in, PrintStream out, PrintStream err) {
        this.environment = environment;
        this.in = in;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        if (list) {
            for (Benchmark benchmark : BENCHMARKS) {
                out.printf("%-10s %-45s %s%n", benchmark.name(), benchmark.description(), benchmark.mainClass());
            }
            return 0;
        }
        if (command.isEmpty()) {
            throw usage("missing NAME: one of " + names() + " (weft bench --list)");
        }
        if (command.size() > 1 && (command.contains("--help") || command.contains("-h"))) {
            return helpOf(command.getFirst());
        }
        takeOwnOptions();
        if (command.getFirst().equals("compare")) {
            return compare(command.subList(1, command.size()).stream().map(Path::of).toList());
        }
        CTwin twin = reference ? cTwin() : null;
        Path jar = benchmarksJar();
        if (jar == null) {
            err.println("weft bench: no benchmarks jar found; build it (./mvnw -q package -DskipTests) or set"
                    + " WEFT_BENCH_JAR");
            return 1;
        }
        Progress progress = new Progress(err, err == System.err && Progress.stderrIsTerminal());
        ResultLines results = new ResultLines(progress);
        int status;
        try (PrintStream jobOut = capture(out, results, progress); PrintStream jobErr = capture(err, results, progress)) {
            status = WeftRun.commandLine(new WeftRun(environment, in, jobOut, jobErr), jobOut, jobErr)
                    .execute(weftRunArguments(jar).toArray(String[]::new));
        } finally {
            progress.finish();
        }
        if (status != 0) {
            return status;
        }
        ResultTable table = results.table();
        if (twin != null && table != null) {
            table = withReference(table, twin, jar);
            if (table == null) {
                return 1;
            }
        }
        return csv == null && plot == null ? 0 : BenchFiles.write(table, facts(), csv, plot, err);
    }

    /** {@code --csv FILE}, {@code --plot FILE} and {@code --reference} given after NAME, among the benchmark's. */
    private void takeOwnOptions() {
        List<String> rest = new ArrayList<>(command.subList(0, 1));
        for (int i = 1; i < command.size(); i++) {
            String arg = command.get(i);
            boolean valued = arg.equals("--csv") || arg.equals("--plot");
            if (valued && i + 1 == command.size()) {
                throw usage(arg + " needs a FILE");
            }
            switch (arg) {
                case "--csv" -> csv = Path.of(command.get(++i));
                case "--plot" -> plot = Path.of(command.get(++i));
                case "--reference" -> reference = true;
                default -> rest.add(arg);
            }
        }
        command = rest;
    }

    /**
     * {@code weft bench compare A.csv B.csv ...}: the runs side by side, and {@code --plot}/{@code --csv} of it; of
     * one file, its table redrawn (how scripts that make their own tables get a PNG).
     */
    private int compare(List<Path> files) {
        if (files.isEmpty()) {
            throw usage("compare needs one CSV file of weft bench --csv or more");
        }
        Map<String, ResultTable> runs;
        try {
            runs = RunComparison.read(files);
        } catch (IOException | RuntimeException e) {
            err.println("weft bench compare: " + e.getMessage());
            return 1;
        }
        ResultTable merged = runs.size() == 1 ? runs.values().iterator().next() : ResultTable.merge(runs);
        RunComparison.print(runs, merged, out);
        return csv == null && plot == null ? 0 : BenchFiles.write(merged, facts(), csv, plot, err);
    }

    /** The benchmark's C twin for {@code --reference}; a benchmark without one is a usage error, before any run. */
    private CTwin cTwin() {
        String name = command.getFirst();
        return CTwin.of(name, command.subList(1, command.size())).orElseThrow(() -> usage("--reference: " + name
                + " has no C twin in Open MPI; these have one: " + CTwin.benchmarks()));
    }

    /**
     * {@code table} and the C twin's figures in one table (series {@code Weft} and {@code Open MPI C}); {@code table}
     * alone when Open MPI is not installed; {@code null} (after saying why) when the twin failed.
     */
    private ResultTable withReference(ResultTable table, CTwin twin, Path jar) {
        CReference openMpi = new CReference(environment, out, err);
        if (!openMpi.available()) {
            return table;
        }
        try {
            ResultTable c = openMpi.run(twin, cSources(jar), np, openMpiTransport(), table.rowLabel(),
                    table.columns().getFirst());
            Map<String, ResultTable> runs = new LinkedHashMap<>();
            runs.put("Weft", table);
            runs.put("Open MPI C", c);
            return ResultTable.merge(runs);
        } catch (IOException e) {
            err.println("weft bench --reference: " + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The C twins' sources: {@code c/} beside the benchmarks jar (a release), else the build tree's. */
    private static Path cSources(Path jar) {
        Path beside = jar.toAbsolutePath().getParent().resolve("c");
        return Files.isDirectory(beside) ? beside
                : jar.toAbsolutePath().getParent().getParent().resolve("src").resolve("main").resolve("c");
    }

    /**
     * Open MPI's transport for the twin, the one Weft's ranks use: TCP when {@code --param methods=} leaves out shm
     * but names tcp, else shared memory (ob1 and vader, so that this BTL is the one measured, not UCX's PML).
     */
    private List<String> openMpiTransport() {
        boolean tcp = params.stream().anyMatch(p -> p.startsWith("methods=") && p.contains("tcp")
                && !p.contains("shm"));
        return tcp ? List.of("--mca", "btl", "tcp,self") : List.of("--mca", "pml", "ob1", "--mca", "btl", "vader,self");
    }

    /** A stream for the job in place of {@code stream}: result lines go to {@code results}, others through. */
    private PrintStream capture(PrintStream stream, ResultLines results, Progress progress) {
        return new PrintStream(new ResultCapture(stream, err, results, progress), true, StandardCharsets.UTF_8);
    }

    /** What the CSV says about the run beside its figures: the command, when, where, and how loaded the host was. */
    private Map<String, String> facts() {
        Map<String, String> facts = new LinkedHashMap<>();
        List<String> args = spec.commandLine().getParseResult().originalArgs(); // weft's: "bench" first
        int from = !args.isEmpty() && args.getFirst().equals("bench") ? 1 : 0;
        facts.put("command", "weft bench " + String.join(" ", args.subList(from, args.size())));
        facts.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        facts.put("weft", WeftVersion.version());
        facts.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        facts.put("host", BenchFiles.hostName());
        facts.put("load", BenchFiles.loadAverage());
        return facts;
    }

    /**
     * {@code weft bench NAME --help}: what the benchmark measures and how to run it, without starting its ranks
     * (whose option parsers know no {@code --help}: each rank printed a stack trace).
     */
    private int helpOf(String name) {
        Benchmark benchmark = BENCHMARKS.stream().filter(b -> b.name().equals(name)).findFirst()
                .orElseThrow(() -> usage("unknown benchmark '" + name + "': one of " + names()));
        out.println(benchmark.name() + ": " + benchmark.description() + " (" + benchmark.mainClass() + ")");
        out.println("Options after the name go to the benchmark; the OSU-style ones take -m MAX_BYTES,"
                + " -i ITERATIONS, --heap.");
        spec.commandLine().usage(out);
        return 0;
    }

    /** The {@code weftrun} command line (without {@code weftrun}) that runs the benchmark from {@code jar}. */
    List<String> weftRunArguments(Path jar) {
        Benchmark benchmark = BENCHMARKS.stream().filter(b -> b.name().equals(command.getFirst())).findFirst()
                .orElseThrow(() -> usage("unknown benchmark '" + command.getFirst() + "': one of " + names()));
        List<String> args = new ArrayList<>();
        if (rsh != null) {
            args.addAll(List.of("--rsh", rsh));
        }
        if (!sites.isEmpty()) {
            sites.forEach(site -> args.addAll(List.of("--site", site)));
        } else {
            args.addAll(benchmark.placement().isEmpty() ? List.of("-np", Integer.toString(np))
                    : benchmark.placement());
        }
        for (int i = 0; i + 1 < paths.size(); i += 2) {
            args.addAll(List.of("--path", paths.get(i), paths.get(i + 1)));
        }
        params.forEach(param -> args.addAll(List.of("--param", param)));
        args.add("--jvm-arg=-D" + RESULTS_PROPERTY + "=true"); // the benchmark reports its table (Results)
        jvmArgs.forEach(arg -> args.add("--jvm-arg=" + arg));
        if (timeoutSeconds != null) {
            args.addAll(List.of("--timeout", timeoutSeconds.toString()));
        }
        args.addAll(List.of("-cp", jar.toString(), benchmark.mainClass()));
        args.addAll(command.subList(1, command.size()));
        return args;
    }

    /** {@code $WEFT_BENCH_JAR}, else the benchmarks jar of this release or build tree, or null. */
    Path benchmarksJar() {
        String explicit = environment.get("WEFT_BENCH_JAR");
        if (explicit != null) {
            return Path.of(explicit);
        }
        Path launcher = Weft.Info.launcherPath();
        if (launcher == null) {
            return null;
        }
        // a release keeps it in lib/bench/, off the ranks' class path (every jar of lib/ is on it)
        Path installed = findJar(launcher.getParent().resolve("bench"));
        if (installed != null) {
            return installed;
        }
        // launcher/target/launcher-V.jar (or launcher/target/classes) -> the build tree's root
        Path root = launcher.getParent().getParent() == null ? null : launcher.getParent().getParent().getParent();
        return root == null ? null : findJar(root.resolve("benchmarks").resolve("target"));
    }

    private static Path findJar(Path directory) {
        if (directory == null || !Files.isDirectory(directory)) {
            return null;
        }
        try (var files = Files.list(directory)) {
            return files.filter(f -> {
                String name = f.getFileName().toString();
                return name.startsWith("benchmarks-") && name.endsWith(".jar") && !name.endsWith("-sources.jar")
                        && !name.endsWith("-tests.jar") && !name.endsWith("-javadoc.jar");
            }).findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static String names() {
        return BENCHMARKS.stream().map(Benchmark::name).toList().toString();
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
