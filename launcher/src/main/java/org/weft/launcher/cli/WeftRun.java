package org.weft.launcher.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.weft.adi.param.Parameter;
import org.weft.adi.trace.StartupTrace;
import org.weft.mm.DeviceParameters;
import org.weft.mm.ModuleCatalog;
import org.weft.mm.module.tcp.TcpParameters;
import org.weft.mm.select.MethodOrder;
import org.weft.launcher.agent.HostAgent;
import org.weft.launcher.agent.LocalAgent;
import org.weft.launcher.agent.RemoteShell;
import org.weft.launcher.io.OutputFiles;
import org.weft.launcher.io.OutputSink;
import org.weft.launcher.job.Job;
import org.weft.launcher.plan.AotCache;
import org.weft.launcher.plan.AppContext;
import org.weft.launcher.plan.HostPlacement;
import org.weft.launcher.plan.Hostfile;
import org.weft.launcher.plan.JobPlan;
import org.weft.launcher.plan.RankCommands;
import org.weft.launcher.plan.RelayPlacement;
import org.weft.launcher.plan.Site;
import org.weft.launcher.plan.SiteLayout;
import org.weft.launcher.slurm.SlurmAllocation;
import org.weft.launcher.slurm.Srun;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weftrun}: starts an MPI program written in Java as N ranks (JVMs) on this host, or on the hosts given
 * (through a remote shell), as {@code mpirun} does.
 * Option parsing stops at MAIN (or at the jar after {@code -jar}): everything after it goes to the program.
 */
@Command(name = "weftrun", mixinStandardHelpOptions = true, versionProvider = WeftVersion.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Runs a Java MPI program as N processes (ranks) on this host or on the hosts given.",
        synopsisHeading = "%nUsage: ",
        customSynopsis = {"weftrun -np N [OPTIONS] [-cp CLASSPATH] MAIN [ARGS...]",
                "       weftrun -np N [OPTIONS] -jar APP.jar [ARGS...]",
                "       weftrun -np N [OPTIONS] java [JAVA OPTIONS] MAIN|-jar APP.jar [ARGS...]",
                "       weftrun [-np N] --host HOST[:SLOTS],... [--rsh COMMAND] [OPTIONS] MAIN [ARGS...]",
                "       weftrun [-np N] [OPTIONS] MAIN [ARGS...]    (in salloc or sbatch: SLURM's nodes, with srun)",
                "       weftrun --site NAME:NP[:HOSTS] --site ... [OPTIONS] MAIN [ARGS...]",
                "       weftrun [OPTIONS] -np N [-cp CP] MAIN [ARGS...] : -np M [-cp CP] [-J ARG] [-x VAR] MAIN2 ...",
                "       weftrun [OPTIONS] --app FILE       (a line of FILE: -np N [-cp CP] MAIN [ARGS...])"},
        footerHeading = "%n",
        footer = {"Ranks get WEFT_RANK, WEFT_SIZE, WEFT_LOCAL_RANK, WEFT_LOCAL_SIZE, WEFT_JOB_ID, WEFT_BOOTSTRAP,",
                "WEFT_SECRET in their environment",
                "(ranks of a native site: WEFT_RANK_BASE instead of WEFT_RANK; with --site also WEFT_SITE;",
                "on another host also WEFT_HOST). Other hosts need the same paths (JDK, class path) as this one.",
                "Several programs, one MPI_COMM_WORLD (MPMD, as mpirun): app contexts separated by ':', ranks in",
                "their order; each rank gets its context's index as MPI.APPNUM (WEFT_APPNUM).",
                "Exit status: 0 when every rank exited 0; else the first failing rank's status",
                "or its MPI_Abort code; " + Job.TIMEOUT_STATUS + " when --timeout expired; 2 for a bad command line."})
public final class WeftRun implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N",
            description = "Number of ranks (default: the slots of --host or --hostfile, or SLURM's tasks).")
    int np;

    @Option(names = {"-cp", "-classpath", "--class-path"}, paramLabel = "CLASSPATH",
            description = "The program's class path (default: $CLASSPATH, else the current directory).")
    String classPath;

    @Option(names = "-jar", description = "Run the Main-Class of the jar given as first parameter.")
    boolean jar;

    @Option(names = "--site", paramLabel = "NAME:NP[:HOSTS]",
            description = {"A site of NP ranks (repeatable); global ranks are contiguous per site in the order given.",
                    "A site is started by its own mpirun when one is on the PATH, else rank by rank."})
    private List<String> sites = new ArrayList<>();

    @Option(names = {"--hostfile", "-hostfile", "--machinefile"}, paramLabel = "FILE",
            description = "Hosts from a file: lines HOST [slots=N] [site=NAME]; with site labels it gives the sites.")
    Path hostfile;

    @Option(names = {"--app", "-app"}, paramLabel = "FILE",
            description = "An appfile: one app context per line (-np N [-cp CP] [-J ARG] [-x VAR] MAIN [ARGS]).")
    private Path appFile;

    @Option(names = {"-H", "--host"}, paramLabel = "HOST[:SLOTS],...",
            description = "Hosts to run on, ranks placed by slot (one slot per host unless given), as mpirun -H.")
    String hosts;

    @Option(names = {"-npernode", "--npernode", "-N"}, paramLabel = "N",
            description = "N ranks on each host of --host or --hostfile (this host without them); -np defaults to all.")
    private Integer perNode;

    @CommandLine.Mixin
    MpirunOptions mpirun = new MpirunOptions();

    @CommandLine.Mixin
    private JfrOption jfr = new JfrOption();

    @Option(names = "--oversubscribe",
            description = "More ranks than the slots of --host or --hostfile: placed round-robin (else refused).")
    boolean oversubscribe;

    @Option(names = "--rsh", paramLabel = "COMMAND",
            description = "Remote shell that starts ranks on other hosts, given HOST and a shell command line "
                    + "(default: $WEFT_RSH, else srun in a SLURM allocation, else " + RemoteShell.DEFAULT_AGENT + ").")
    private String rsh;

    @Option(names = "--site-launcher", paramLabel = "NAME=auto|mpirun|weft|PATH",
            description = "Who starts site NAME: the mpirun on the PATH, Weft's agent, auto (mpirun if on the PATH),"
                    + " or the mpirun at PATH (Open MPI's or MPICH's Hydra, e.g. /usr/bin/mpirun.mpich).")
    private List<String> siteLaunchers = new ArrayList<>();

    @Option(names = "--relay", paramLabel = "SITE=HOST",
            description = {"Run a relay for site SITE on HOST (its gateway; this host without =HOST): ranks of other "
                    + "sites reach SITE's ranks through it when direct tcp cannot connect (also: HOST gateway=SITE in "
                    + "a hostfile)."})
    private List<String> relays = new ArrayList<>();

    @Option(names = "--tag-output", description = "Prefix each output line with [1,RANK]<stdout>: or <stderr>:.")
    boolean tagOutput;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Kill the job after this many seconds.")
    Long timeoutSeconds;

    @Option(names = "-x", paramLabel = "NAME[=VALUE]",
            description = "Export an environment variable to the ranks (its value here when none is given).")
    List<String> exports = new ArrayList<>();

    @Option(names = "--param", paramLabel = "NAME=VALUE",
            description = "Set Weft parameter NAME for the ranks (environment WEFT_NAME).")
    List<String> params = new ArrayList<>();

    @Option(names = "--path", arity = "2", paramLabel = "SITES SETTINGS",
            description = "Settings of the wide-area path between two sites, e.g. --path a:b streams=16,window=8m"
                    + " (streams=auto|N, max, chunk, window, pacing, min; parameter tcp_paths).")
    private List<String> paths = new ArrayList<>();

    @Option(names = "--methods", paramLabel = "LIST",
            description = "Communication methods in order of preference, e.g. tcp (TCP everywhere) or self,tcp.")
    String methods;

    @Option(names = "--report", description = "At the end, print the method matrix and per-method counters.")
    boolean report;

    @Option(names = "--info", description = "List every Weft parameter with its default, unit, value and doc.")
    private boolean info;

    @Option(names = {"-J", "--jvm-arg"}, paramLabel = "ARG", description = "An extra JVM option for the ranks.")
    List<String> jvmArgs = new ArrayList<>();

    @Parameters(paramLabel = "MAIN", arity = "0..*",
            description = "Main class (or, with -jar, the jar) and the program's arguments.")
    List<String> program = new ArrayList<>();

    private final Map<String, String> launcherEnvironment;
    private Optional<SlurmAllocation> slurm;
    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;

    WeftRun(Map<String, String> launcherEnvironment, InputStream in, PrintStream out, PrintStream err) {
        this.launcherEnvironment = launcherEnvironment;
        this.in = in;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        StartupTrace.mark("weftrun", "main");
        LocalAgent.prepare();
        System.exit(execute(args, System.in, System.out, System.err));
    }

    /**
     * Runs {@code weftrun} with these arguments and streams; returns its exit status. A common command line is read
     * without picocli ({@link QuickCommandLine}), whose model of the options is then built only to report a mistake.
     */
    public static int execute(String[] args, InputStream in, PrintStream out, PrintStream err) {
        WeftRun command = new WeftRun(System.getenv(), in, out, err);
        if (!QuickCommandLine.read(args, command)) {
            return commandLine(command, out, err).execute(args);
        }
        try {
            try {
                return command.call();
            } catch (ParameterException e) { // as picocli's execute: the mistake and the usage, status 2
                return e.getCommandLine().getParameterExceptionHandler().handleParseException(e, args);
            }
        } catch (Exception e) { // as picocli's execute: the stack trace, status 1
            e.printStackTrace(err);
            return CommandLine.ExitCode.SOFTWARE;
        }
    }

    /**
     * {@code weftrun}'s options and parameters as its command line declares them, for code that writes weftrun
     * command lines and must know, e.g., that {@code --path} takes two values (the tests' harness).
     */
    public static CommandSpec commandSpec() {
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream());
        return commandLine(new WeftRun(Map.of(), InputStream.nullInputStream(), discard, discard), discard, discard)
                .getCommandSpec();
    }

    /** The picocli command line of a {@code weftrun} (also used as {@code weft run}). */
    static CommandLine commandLine(WeftRun command, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(command);
        configure(commandLine, out, err);
        return commandLine;
    }

    static void configure(CommandLine commandLine, PrintStream out, PrintStream err) {
        commandLine.setStopAtPositional(true) // MAIN ends our options: the rest belongs to the program
                .setExpandAtFiles(false)
                .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
                .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (info) {
            ParameterInfo.print(out, launcherEnvironment, weftParameters());
            return 0;
        }
        StartupTrace.mark("weftrun", "command line parsed");
        JobPlan plan = plan();
        mpirun.warnings().forEach(this::warn);
        mpirun.display(plan, out);
        OutputFiles outputFiles;
        try {
            outputFiles = mpirun.outputFiles(plan.np());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        String named = rsh != null ? rsh : launcherEnvironment.get("WEFT_RSH");
        RemoteShell remote = remoteShell(named, plan);
        // A site's mpirun starts its own remote processes: with the user's remote shell if one was named, else as
        // that MPI is configured to (its default is ssh, possibly set up by the site's administrators).
        RankCommands commands = RankCommands.ofThisJvm()
                .withSiteRemoteShell(named != null ? RemoteShell.words(named) : List.of())
                .withAotCache(AotCache.of(launcherEnvironment));
        int status = new Job(plan, commands, new HostAgent(new LocalAgent(), remote), new OutputSink(out),
                new OutputSink(err), in).withOutput(outputFiles, mpirun.quiet).withRelays(relayPlacements(plan))
                .withNames(mpirun.names).run();
        jfr.listRecordings(err);
        return status;
    }

    /** The agent for other hosts: the one named, else srun inside a SLURM allocation, else ssh. */
    RemoteShell remoteShell(String named, JobPlan plan) {
        String workingDirectory = System.getProperty("user.dir");
        if (named == null && slurm() != null) {
            String srun = Srun.find(launcherEnvironment.get("PATH"));
            if (srun == null && plan.spansHosts()) {
                throw usage("inside SLURM job " + slurm().jobId() + " but no srun on the PATH to start ranks on "
                        + plan.otherHosts() + " (--rsh names another agent)");
            }
            return Srun.remoteShell(srun == null ? "srun" : srun, workingDirectory);
        }
        return RemoteShell.parse(named != null ? named : RemoteShell.DEFAULT_AGENT, workingDirectory);
    }

    /** The SLURM allocation weftrun runs in, read once; {@code null} outside one. */
    private SlurmAllocation slurm() {
        if (slurm == null) {
            try {
                slurm = Optional.ofNullable(SlurmAllocation.of(launcherEnvironment));
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        return slurm.orElse(null);
    }

    /** The job this command line asks for; a {@link ParameterException} (status 2) when it asks for nonsense. */
    JobPlan plan() {
        Hostfile file = readHostfile();
        List<Site> layout = siteLayout(file);
        List<String> slots = layout.isEmpty() ? slots(file) : List.of();
        if (perNode != null) {
            slots = perNodeSlots(slots, layout);
        }
        try {
            slots = mpirun.mapped(slots);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        List<List<String>> segments = AppContextOptions.split(program);
        List<AppContext> apps = new ArrayList<>();
        if (appFile != null) {
            apps.addAll(readAppFile());
            np = apps.getFirst().np();
        } else {
            apps.add(null); // the first app context, once its -np is known
        }
        for (int appNum = 1; appNum < segments.size(); appNum++) {
            try {
                apps.add(AppContextOptions.parse(segments.get(appNum), appNum, launcherEnvironment, this::warn));
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        int laterRanks = apps.stream().skip(1).mapToInt(AppContext::np).sum();
        if (!layout.isEmpty()) {
            int total = layout.getLast().firstRank() + layout.getLast().np();
            if (np != 0 && np + laterRanks != total) {
                throw usage("-np " + (np + laterRanks) + " does not match the " + total
                        + " ranks of the sites (leave -np out)");
            }
            np = total - laterRanks;
        } else if (np == 0 && !slots.isEmpty()) {
            np = slots.size() - laterRanks; // as mpirun: one rank per slot of the hosts given
        }
        if (np == 0) {
            throw usage("missing -np N (the number of ranks), or hosts with slots (--host, --hostfile)");
        }
        if (np < 1) {
            throw usage("-np must be at least 1, not " + np);
        }
        int total = np + laterRanks;
        if (!slots.isEmpty() && total > slots.size() && !oversubscribe) {
            throw usage("-np " + total + " is more than the " + slots.size() + " slots of the hosts given (HOST:SLOTS,"
                    + " slots=N in a hostfile); --oversubscribe places the others round-robin, as with mpirun");
        }
        try {
            if (appFile == null) {
                apps.set(0, AppContextOptions.program(np, classPath, jar, List.of(), segments.getFirst(), Map.of(),
                        launcherEnvironment, "weftrun"));
            }
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage().replaceFirst("^weftrun: ", ""));
        }
        Duration timeout = null;
        if (timeoutSeconds != null) {
            if (timeoutSeconds <= 0) {
                throw usage("--timeout must be a positive number of seconds, not " + timeoutSeconds);
            }
            timeout = Duration.ofSeconds(timeoutSeconds);
        }
        List<String> rankHosts = layout.isEmpty() ? HostPlacement.bySlot(slots, total)
                : HostPlacement.ofSites(layout);
        return new JobPlan(apps, environment(), jvmArgs, tagOutput, timeout, layout, rankHosts);
    }

    /** The relays of {@code --relay} and of the hostfile's {@code gateway=} lines, checked against the sites. */
    private List<RelayPlacement> relayPlacements(JobPlan plan) {
        try {
            List<RelayPlacement> placements = new ArrayList<>();
            relays.forEach(relay -> placements.add(RelayPlacement.parse(relay)));
            Hostfile file = readHostfile();
            if (file != null) {
                placements.addAll(file.gateways());
            }
            return RelayPlacement.checked(placements, plan.sites());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The app contexts of {@code --app FILE}, which then gives every program of the job. */
    private List<AppContext> readAppFile() {
        if (!program.isEmpty() || np != 0 || jar || classPath != null) {
            throw usage("--app " + appFile + " gives the programs with their -np and class path: put none of"
                    + " MAIN, -np, -cp or -jar on the command line");
        }
        try {
            return AppFile.parse(appFile.toString(), Files.readAllLines(appFile), launcherEnvironment, this::warn);
        } catch (IOException e) {
            throw usage("cannot read the appfile " + appFile + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private void warn(String warning) {
        if (!mpirun.quiet) {
            err.println("weftrun: " + warning);
        }
    }

    /** {@code -npernode N}: each host (this one, without hosts) N slots, whatever slots they had. */
    private List<String> perNodeSlots(List<String> slots, List<Site> layout) {
        if (perNode < 1) {
            throw usage("-npernode must be at least 1, not " + perNode);
        }
        if (!layout.isEmpty()) {
            throw usage("-npernode places the ranks of a job without sites; give each site's ranks in --site");
        }
        List<String> perNodeSlots = new ArrayList<>();
        for (String host : slots.isEmpty() ? List.of("") : slots.stream().distinct().toList()) {
            perNodeSlots.addAll(Collections.nCopies(perNode, host));
        }
        return perNodeSlots;
    }

    /** The job's slots when it has no sites: from {@code --host} or a hostfile without site labels. */
    private List<String> slots(Hostfile file) {
        try {
            if (hosts != null) {
                return HostPlacement.parseHosts(hosts);
            }
            if (file == null && slurm() != null) {
                return slurm().slots(); // as mpirun in an allocation: its nodes, a slot per task SLURM gave them
            }
            return file == null ? List.of() : file.slots();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The {@code --hostfile}, read once; {@code null} without one. */
    private Hostfile readHostfile() {
        if (hostfile == null) {
            return null;
        }
        try {
            return Hostfile.parse(Files.readAllLines(hostfile));
        } catch (IOException e) {
            throw usage("cannot read the hostfile " + hostfile + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private List<Site> siteLayout(Hostfile file) {
        try {
            List<String> siteOptions = new ArrayList<>(sites);
            if (file != null && file.hasSites()) {
                siteOptions.addAll(file.siteOptions());
            }
            if (!siteOptions.isEmpty() && hosts != null) {
                throw usage("--host places the ranks of a job without sites; give a site's hosts in --site");
            }
            if (siteOptions.isEmpty() && !siteLaunchers.isEmpty()) {
                throw usage("--site-launcher needs --site or a hostfile with sites");
            }
            return SiteLayout.parse(siteOptions, siteLaunchers,
                    SiteLayout.findMpirun(launcherEnvironment.get("PATH")));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private Map<String, String> environment() {
        Map<String, String> environment;
        try {
            environment = AppContextOptions.exports(exports, launcherEnvironment, this::warn);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        Map<String, String> weft = weftParameters();
        weft.forEach((name, value) -> environment.put(environmentName(name), value));
        environment.putAll(jfr.environment());
        return environment;
    }

    /** The Weft parameters this command line sets: {@code --param}, {@code --methods}, {@code --report}. */
    private Map<String, String> weftParameters() {
        Map<String, String> weft = new LinkedHashMap<>();
        for (String param : params) {
            int eq = param.indexOf('=');
            if (eq <= 0) {
                throw usage("--param " + param + ": expected NAME=VALUE");
            }
            String name = param.substring(0, eq);
            if (ModuleCatalog.parameters().stream().noneMatch(p -> p.name().equals(name))) {
                throw usage("--param " + name + ": Weft has no such parameter (weftrun --info lists them)");
            }
            weft.put(name, param.substring(eq + 1));
        }
        if (methods != null) {
            weft.put(MethodOrder.METHODS.name(), methods);
        }
        if (!paths.isEmpty()) {
            StringBuilder declared = new StringBuilder(weft.getOrDefault(TcpParameters.PATHS.name(), ""));
            for (int i = 0; i + 1 < paths.size(); i += 2) {
                declared.append(declared.isEmpty() ? "" : ";").append(paths.get(i)).append(' ')
                        .append(paths.get(i + 1));
            }
            weft.put(TcpParameters.PATHS.name(), declared.toString());
        }
        if (weft.containsKey(TcpParameters.PATHS.name())) {
            try {
                TcpParameters.checkPaths(weft.get(TcpParameters.PATHS.name()));
            } catch (IllegalArgumentException e) {
                throw usage("--path: " + e.getMessage());
            }
        }
        if (report) {
            weft.put(DeviceParameters.REPORT.name(), "1");
        }
        weft.putAll(mpirun.parameters());
        return weft;
    }

    private static String environmentName(String parameter) {
        return Parameter.string(parameter, "", "").environmentName();
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec != null ? spec.commandLine() : commandLine(this, out, err), message);
    }
}
