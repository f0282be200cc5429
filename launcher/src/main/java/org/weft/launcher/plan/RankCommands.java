package org.weft.launcher.plan;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.weft.adi.WorldConfig;
import org.weft.core.JitHints;
import org.weft.mm.DeviceParameters;
import org.weft.mm.module.shm.ShmParameters;
import org.weft.mm.relay.RelayMain;

/**
 * Builds each rank's command line and environment: the launcher's own {@code java}, native access enabled
 * (the native MPI module uses FFM), Weft's {@link JitHints}, the {@link AotCache}, the user's JVM options, the
 * user's class path and Weft's runtime jars, in the order {@link ClassPathOrder} gives (Weft's jars first when the
 * user's class path holds its own copy of Netty or of an {@code mpi} package, which must not shadow Weft's), the main
 * class and the program's arguments; and the {@code WEFT_*} variables of {@link WorldConfig} over the user's
 * exports.
 */
public final class RankCommands {
    /**
     * A rank's index among the job's ranks on its host, for scripts (as Open MPI's
     * {@code OMPI_COMM_WORLD_LOCAL_RANK}, which Weft does not set: it means "started by Open MPI" to the nativempi
     * module and to {@link WorldConfig}). Ranks of a native site have their MPI's own.
     */
    public static final String ENV_LOCAL_RANK = "WEFT_LOCAL_RANK";
    /** Always given to ranks: the native MPI module calls libmpi through FFM. */
    private static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** Always given to ranks: Netty 4.1 uses sun.misc.Unsafe, which JDK 25 otherwise warns about on stderr. */
    private static final String UNSAFE_ACCESS = "--sun-misc-unsafe-memory-access=allow";
    /** Every rank's JVM options before the user's (which can override them). */
    public static final List<String> WEFT_JVM_OPTIONS = Stream.of(List.of(NATIVE_ACCESS, UNSAFE_ACCESS),
            JitHints.jvmOptions(), JdkLookupOptions.jvmOptions()).flatMap(List::stream).toList();

    private final String java;
    private final List<String> runtimeClassPath;
    private final AotCache aotCache;
    /** Whether a program's class path comes before Weft's jars, per class path. */
    private final ClassPathOrder classPathOrder = new ClassPathOrder();
    /** The remote shell the user named ({@code --rsh}), passed on to a site's mpirun; empty: mpirun's own. */
    private final List<String> siteRemoteShell;

    /**
     * @param java the {@code java} executable ranks run with
     * @param runtimeClassPath Weft's runtime jars (mpi-api, adi-device, multimethod-device, netty, ...)
     */
    public RankCommands(String java, List<String> runtimeClassPath) {
        this(java, runtimeClassPath, List.of(), AotCache.NONE);
    }

    private RankCommands(String java, List<String> runtimeClassPath, List<String> siteRemoteShell,
                         AotCache aotCache) {
        this.java = java;
        this.runtimeClassPath = List.copyOf(runtimeClassPath);
        this.siteRemoteShell = List.copyOf(siteRemoteShell);
        this.aotCache = aotCache;
    }

    /**
     * These commands with {@code agent} (a program and its arguments, as {@code --rsh} gives it) as the remote shell
     * of native sites on several hosts: Open MPI's mpirun gets it as {@code plm_rsh_agent}, Hydra as
     * {@code -launcher-exec} (one program: Hydra takes no arguments for it). Without it each mpirun uses its own.
     */
    public RankCommands withSiteRemoteShell(List<String> agent) {
        return new RankCommands(java, runtimeClassPath, agent, aotCache);
    }

    /** These commands with the ranks' JVMs using (or training) {@code cache}. */
    public RankCommands withAotCache(AotCache cache) {
        return new RankCommands(java, runtimeClassPath, siteRemoteShell, cache);
    }

    /**
     * Ranks run with the launcher's own JDK and class path (which holds Weft's runtime jars), less the jars only the
     * launcher uses ({@link #LAUNCHER_ONLY}): a program's own JFreeChart must not meet Weft's first on its class path.
     */
    public static RankCommands ofThisJvm() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty() && !launcherOnly(entry)) {
                classPath.add(entry);
            }
        }
        return new RankCommands(java, classPath);
    }

    /** Name prefixes of the jars on the launcher's class path that the ranks do not get (weft bench's plots). */
    static final List<String> LAUNCHER_ONLY = List.of("jfreechart-");

    static boolean launcherOnly(String classPathEntry) {
        Path name = Path.of(classPathEntry).getFileName();
        return name != null && LAUNCHER_ONLY.stream().anyMatch(name.toString()::startsWith);
    }

    /** Weft's runtime jars, appended to every rank's class path. */
    public List<String> runtimeClassPath() {
        return runtimeClassPath;
    }

    /** The command and environment of {@code rank} of a job that has no job directory. */
    public RankLaunch launch(JobPlan plan, JobIdentity job, int rank) {
        return launch(plan, job, rank, null);
    }

    /**
     * Every process the job starts, in rank order: one per rank, except that a native site is one {@code mpirun}
     * for all its ranks. {@code jobDir} (may be null) is passed on as in {@link #launch(JobPlan, JobIdentity, int,
     * Path)}.
     */
    public List<RankLaunch> launches(JobPlan plan, JobIdentity job, Path jobDir) {
        List<RankLaunch> launches = new ArrayList<>();
        for (int rank = 0; rank < plan.np(); ) {
            Site site = plan.siteOf(rank);
            if (site != null && site.isNative()) {
                launches.add(launchSite(plan, job, site, jobDir));
                rank += site.np();
            } else {
                launches.add(launch(plan, job, rank, jobDir));
                rank++;
            }
        }
        return launches;
    }

    /**
     * The command and environment of {@code rank} of the job; {@code jobDir} (may be null), the job's private
     * directory (on every host the same path), is passed as {@code WEFT_JOB_DIR} (the {@code job_dir} parameter of
     * shared memory).
     */
    public RankLaunch launch(JobPlan plan, JobIdentity job, int rank, Path jobDir) {
        Site site = plan.siteOf(rank);
        String host = plan.hostOf(rank);
        Map<String, String> environment = worldEnvironment(plan, job, site, jobDir, host);
        environment.putAll(appVariables(plan, plan.appNumOf(rank)));
        environment.put(WorldConfig.ENV_RANK, Integer.toString(rank));
        environment.put(ENV_LOCAL_RANK, Integer.toString(plan.localRankOf(rank)));
        return new RankLaunch(rank, 1, site == null ? "" : site.name(), null, host, javaCommand(plan, rank),
                environment);
    }

    /**
     * One {@code mpirun} for all ranks of a native site, run on the site's first host: each child learns its global
     * rank as {@code WEFT_RANK_BASE} plus its rank in the {@code mpirun} ({@link WorldConfig#fromEnvironment}). A
     * site on several hosts gives them to mpirun with the job's variables (Open MPI: {@code --host} and {@code -x};
     * Hydra passes its whole environment); mpirun passes its environment on to the children on its own host. Open
     * MPI's own messages are off ({@code -q}): the launcher reports failures with global ranks; tagged output lines
     * ({@code --tag-output}, Hydra's {@code -prepend-rank}) are re-tagged the same way.
     */
    public RankLaunch launchSite(JobPlan plan, JobIdentity job, Site site, Path jobDir) {
        MpirunFlavour flavour = MpirunFlavour.of(site.mpirun());
        Map<String, Long> slots = site.hosts().stream().collect(Collectors.groupingBy(h -> h, LinkedHashMap::new,
                Collectors.counting()));
        boolean severalHosts = slots.size() > 1;
        String host = plan.hostOf(site.firstRank());
        Map<String, String> environment = worldEnvironment(plan, job, site, jobDir, severalHosts ? "" : host);
        environment.put(WorldConfig.ENV_RANK_BASE, Integer.toString(site.firstRank()));
        String hostList = severalHosts ? String.join(",", slots.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue()).toList()) : null;
        List<String> segments = appSegments(plan, site, environment); // first: it adds variables for -x
        List<String> command = new ArrayList<>(List.of(site.mpirun().toString()));
        command.addAll(flavour == MpirunFlavour.HYDRA ? hydraOptions(plan, site, hostList)
                : openMpiOptions(plan, site, hostList, environment));
        if (segments.getFirst().equals("-np")) { // several app contexts: each says its own -np
            int np = command.indexOf("-np");
            command.subList(np, np + 2).clear();
        }
        command.addAll(segments);
        return new RankLaunch(site.firstRank(), site.np(), site.name(), flavour, host, command, environment);
    }

    /**
     * A relay process for {@code relay.site()} on {@code relay.host()}: Weft's runtime class path, the job's id and
     * secret (the secret through the remote shell's standard input, as a rank's), its site, and the user's exports
     * (its {@code relay_*} parameters). It listens on loopback when the whole job runs on this host.
     */
    public RankLaunch launchRelay(JobPlan plan, JobIdentity job, RelayPlacement relay) {
        Map<String, String> environment = new LinkedHashMap<>(plan.environment());
        environment.put(WorldConfig.ENV_JOB_ID, job.jobId());
        environment.put(WorldConfig.ENV_SECRET, job.secret());
        environment.put(DeviceParameters.SITE.environmentName(), relay.site());
        environment.put(RelayMain.ENV_LISTEN, relay.host().isEmpty() && !plan.spansHosts() ? "127.0.0.1" : "auto");
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-cp",
                String.join(File.pathSeparator, runtimeClassPath), RelayMain.class.getName()));
        return new RankLaunch(-1, 0, relay.site(), null, relay.host(), command, environment);
    }

    /** Hydra's options for {@code site}; {@code hostList} is {@code null} for a site on one host. */
    private List<String> hydraOptions(JobPlan plan, Site site, String hostList) {
        List<String> options = new ArrayList<>(List.of("-np", Integer.toString(site.np()), "-bind-to", "none"));
        if (plan.tagOutput()) {
            options.add("-prepend-rank");
        }
        if (hostList != null) {
            options.addAll(List.of("-hosts", hostList));
            if (siteRemoteShell.size() > 1) {
                throw new IllegalArgumentException("site " + site.name() + ": Hydra takes its remote shell as one"
                        + " program (-launcher-exec), not '" + String.join(" ", siteRemoteShell)
                        + "': put the arguments in a script and give --rsh that");
            }
            if (!siteRemoteShell.isEmpty()) {
                options.addAll(List.of("-launcher", "rsh", "-launcher-exec", siteRemoteShell.getFirst()));
            }
        }
        return options;
    }

    /**
     * Open MPI's options for {@code site}; {@code hostList} is {@code null} for a site on one host. Adds the
     * variables Open MPI wants as root to {@code environment}, and passes all of it to other hosts ({@code -x}).
     */
    private List<String> openMpiOptions(JobPlan plan, Site site, String hostList, Map<String, String> environment) {
        List<String> options = new ArrayList<>(List.of("-q", "-np", Integer.toString(site.np()), "--oversubscribe",
                "--bind-to", "none"));
        if (plan.tagOutput()) {
            options.add("--tag-output");
        }
        if (!site.contains(0)) {
            options.addAll(List.of("--stdin", "none")); // only rank 0 reads the launcher's stdin
        }
        if (isRoot()) {
            // Open MPI refuses to run as root without both; a user typing weftrun as root means it
            environment.putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT", "1");
            environment.putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        }
        if (hostList != null) {
            options.addAll(List.of("--host", hostList));
            if (!siteRemoteShell.isEmpty()) {
                options.addAll(List.of("--mca", "plm_rsh_agent", String.join(" ", siteRemoteShell)));
            }
            for (String name : environment.keySet()) {
                options.addAll(List.of("-x", name));
            }
        }
        return options;
    }

    /**
     * What follows a site's mpirun options: for a site whose ranks run one app context, its JVM's command line (its
     * {@code WEFT_APPNUM} goes into {@code environment}); for a site of several, {@code -np N} and the command line
     * of each, joined by {@code :} (mpirun's MPMD form, Open MPI's and Hydra's alike), each command starting with
     * {@code env WEFT_APPNUM=K}: the one way to give the contexts different variables that both mpiruns take.
     */
    private List<String> appSegments(JobPlan plan, Site site, Map<String, String> environment) {
        int firstApp = plan.appNumOf(site.firstRank());
        int lastApp = plan.appNumOf(site.firstRank() + site.np() - 1);
        List<String> segments = new ArrayList<>();
        for (int appNum = firstApp; appNum <= lastApp; appNum++) {
            int from = Math.max(site.firstRank(), plan.firstRankOf(appNum));
            int to = Math.min(site.firstRank() + site.np(), plan.firstRankOf(appNum) + plan.apps().get(appNum).np());
            if (!segments.isEmpty()) {
                segments.add(":");
            }
            if (firstApp == lastApp) {
                environment.putAll(appVariables(plan, appNum));
            } else {
                segments.addAll(List.of("-np", Integer.toString(to - from), "env"));
                appVariables(plan, appNum).forEach((name, value) -> segments.add(name + "=" + value));
            }
            segments.addAll(javaCommand(plan, plan.apps().get(appNum), -1));
        }
        return segments;
    }

    /** The variables of app context {@code appNum}'s ranks: its own {@code -x}, its APPNUM and maxprocs. */
    private static Map<String, String> appVariables(JobPlan plan, int appNum) {
        AppContext app = plan.apps().get(appNum);
        Map<String, String> variables = new LinkedHashMap<>(app.environment());
        variables.put(DeviceParameters.APPNUM.environmentName(), Integer.toString(appNum));
        variables.put(DeviceParameters.MAXPROCS.environmentName(), Integer.toString(app.np()));
        return variables;
    }

    /** The JVM's command line of {@code rank}, or of every rank of an mpirun ({@code -1}). */
    private List<String> javaCommand(JobPlan plan, int rank) {
        return javaCommand(plan, plan.appOf(rank), rank);
    }

    /** The JVM's command line running {@code app}, for {@code rank} (or every rank of an mpirun: {@code -1}). */
    private List<String> javaCommand(JobPlan plan, AppContext app, int rank) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(WEFT_JVM_OPTIONS);
        command.addAll(aotCache.jvmOptions(rank));
        command.addAll(plan.jvmArgs());
        command.addAll(app.jvmArgs());
        List<String> classPath = new ArrayList<>(runtimeClassPath);
        if (classPathOrder.programFirst(app.classPath())) {
            classPath.addAll(0, app.classPath());
        } else {
            classPath.addAll(app.classPath());
        }
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(app.mainClass());
        command.addAll(app.programArgs());
        return command;
    }

    /**
     * The user's exports and the job's {@code WEFT_*} variables, without the rank, for a process on {@code host}
     * ({@code ""}: this host, or a native site's several hosts): a rank placed on a named host compares that name
     * for locality, and counts the ranks on it.
     */
    private static Map<String, String> worldEnvironment(JobPlan plan, JobIdentity job, Site site, Path jobDir,
                                                        String host) {
        Map<String, String> environment = new LinkedHashMap<>(plan.environment());
        environment.put(WorldConfig.ENV_SIZE, Integer.toString(plan.np()));
        environment.put(WorldConfig.ENV_JOB_ID, job.jobId());
        environment.put(WorldConfig.ENV_BOOTSTRAP, job.bootstrapAddress());
        environment.put(WorldConfig.ENV_SECRET, job.secret());
        environment.putIfAbsent(DeviceParameters.LOCAL_SIZE.environmentName(), Integer.toString(plan.ranksOn(host)));
        environment.put(DeviceParameters.UNIVERSE_SIZE.environmentName(), Integer.toString(universeSize(plan)));
        if (!host.isEmpty()) {
            environment.put(DeviceParameters.HOST.environmentName(), host);
        }
        if (site != null) {
            environment.put(DeviceParameters.SITE.environmentName(), site.name());
        }
        if (jobDir != null) {
            environment.put(ShmParameters.JOB_DIR.environmentName(), jobDir.toString());
        }
        return environment;
    }

    /**
     * {@code MPI.UNIVERSE_SIZE}: as Open MPI's, the slots the job may use: on this host alone, one a core (at least
     * the job's ranks); over hosts, the job's ranks (Weft does not keep the hosts' slot counts beyond placement).
     */
    private static int universeSize(JobPlan plan) {
        return plan.spansHosts() ? plan.np() : Math.max(plan.np(), Runtime.getRuntime().availableProcessors());
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }
}
