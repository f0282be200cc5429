package org.weft.launcher.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.weft.adi.log.ThrottledLog;
import org.weft.adi.trace.StartupTrace;
import org.weft.launcher.agent.HostAgent;
import org.weft.launcher.agent.RankProcess;
import org.weft.launcher.bootstrap.BootstrapEvent;
import org.weft.launcher.bootstrap.BootstrapServer;
import org.weft.launcher.io.LineForwarder;
import org.weft.launcher.io.LineTag;
import org.weft.launcher.io.OutputFiles;
import org.weft.launcher.io.OutputSink;
import org.weft.launcher.io.StdinForwarder;
import org.weft.launcher.plan.JobIdentity;
import org.weft.launcher.plan.JobPlan;
import org.weft.launcher.plan.MpirunFlavour;
import org.weft.launcher.plan.RankCommands;
import org.weft.launcher.plan.RankLaunch;
import org.weft.launcher.plan.RelayPlacement;
import org.weft.mm.module.relay.RelayParameters;

/**
 * Runs one job to its end: starts the bootstrap service and the ranks, forwards their output, and decides the
 * outcome. The first failure wins and ends the job: a rank that exits non-zero, exits 0 without finalizing,
 * aborts, breaks the protocol or loses contact; or the time limit. The ranks are then told the job is over,
 * given {@link #KILL_GRACE} to stop, and stopped: killed, except a native site's {@code mpirun}, which gets SIGTERM
 * and {@link #MPIRUN_GRACE} to take its ranks down and clean up before it is killed too. No rank outlives
 * {@link #run}, nor the launcher's JVM (a shutdown hook stops them on SIGINT/SIGTERM); nor does the job's
 * {@link JobDirectory}: the main thread and the hook both end in {@link #cleanUp}, which runs once, and whichever
 * comes second waits for it to finish (the JVM halts when the hook returns).
 *
 * <p>Exit status: 0 when every rank exited 0 (after finalizing, if it registered); the failing rank's exit code
 * (128 + N when signal N killed it, as {@code mpirun}) or its {@code MPI_Abort} code; {@link #TIMEOUT_STATUS} on
 * timeout; {@link #FAILURE_STATUS} otherwise. A process the launcher itself stopped is never the cause. The cause is
 * printed once, by the launcher; the ranks it ends say nothing more.
 */
public final class Job {
    /** Between telling ranks the job is over and killing them. */
    static final Duration KILL_GRACE = Duration.ofSeconds(1);
    /**
     * Between SIGTERM to a native site's {@code mpirun} and SIGKILL (Open MPI's takes about a second to end its ranks
     * and remove its session directory).
     */
    static final Duration MPIRUN_GRACE = Duration.ofSeconds(5);
    /** After SIGKILL, how long to wait for the exits to be seen. */
    static final Duration KILL_WAIT = Duration.ofSeconds(5);
    /** After a rank exited 0, how long to wait for its BYE to be read. */
    static final Duration BYE_WAIT = Duration.ofSeconds(2);
    /** After a rank's connection dropped, how long its process may take to end before that is a failure. */
    static final Duration DISCONNECT_GRACE = Duration.ofSeconds(2);
    /** How long a relay may take to start and listen (a JVM, maybe through a remote shell). */
    static final Duration RELAY_READY_WAIT = Duration.ofSeconds(60);
    /** The exit status of a job killed by {@code --timeout} (as {@code timeout(1)}). */
    public static final int TIMEOUT_STATUS = 124;
    /** The exit status of a failure that has no status of its own. */
    public static final int FAILURE_STATUS = 1;
    /** Refused connections reported one by one per {@link #REFUSALS_INTERVAL}; the rest are counted. */
    static final int REFUSALS_BURST = 5;
    static final Duration REFUSALS_INTERVAL = Duration.ofSeconds(10);

    private record Failure(int status, String message) {
    }

    private final JobPlan plan;
    private final RankCommands commands;
    private final HostAgent agent;
    private final OutputSink out;
    private final OutputSink err;
    private final InputStream in;
    /** Strangers' connections: anyone who reaches the bootstrap port can make one. */
    private final ThrottledLog refusals;
    private final BlockingQueue<JobEvent> events = new LinkedBlockingQueue<>();
    /** The process of each job rank (spawned ones too); the ranks of a native site share their mpirun. */
    private RankProcess[] ranks;
    /** Read by the shutdown hook while the main thread may still be adding to it. */
    private final List<RankProcess> processes = new CopyOnWriteArrayList<>();
    /** Ranks whose bootstrap connection dropped without a BYE, first first: in a site's mpirun, the culprit. */
    private final List<Integer> dropped = new ArrayList<>();
    private final List<Thread> forwarders = new ArrayList<>();
    private final List<Integer> exitedUnregistered = new ArrayList<>();
    private boolean[] exited;
    /** The job's identity, for the processes it spawns. */
    private JobIdentity identity;
    /** The app context and host of each spawned rank, and the first rank and size of its world, by job rank. */
    private final java.util.Map<Integer, SpawnedRank> spawned = new java.util.HashMap<>();
    /** Processes started but not yet exited: the supervisor's count, which spawns raise. */
    private int live;

    private record SpawnedRank(org.weft.launcher.plan.SpawnPlan.Root where, int worldFirst, int worldSize) {
    }
    /** The relays to start before the ranks ({@code --relay}). */
    private List<RelayPlacement> relays = List.of();
    /** Where published names are shared with other jobs ({@code --names}), or {@code null}. */
    private java.nio.file.Path names;
    /** The plan the ranks started with: the job's, with the relays' addresses once they listen (spawns get them). */
    private volatile JobPlan ranksPlan;
    private BootstrapServer server;
    private Failure failure;
    /** Where the ranks' shared-memory files live; null when it could not be made (shm is then off). */
    private volatile JobDirectory jobDirectory;
    /** Guards {@link #cleanedUp}, the job directory's creation and the start of each process. */
    private final Object cleanUpLock = new Object();
    private boolean cleanedUp;
    private OutputFiles outputFiles;
    private boolean quiet;

    /**
     * Also writes each rank's output to {@code files} ({@code --output-filename}), closed when the job ends; and,
     * when {@code quiet} ({@code -q}), keeps the launcher's notes to itself (what it could not clean up, what it
     * cannot do), though not why a job failed.
     */
    public Job withOutput(OutputFiles files, boolean quiet) {
        this.outputFiles = files;
        this.quiet = quiet;
        return this;
    }

    /** A note of the launcher's on its stderr, unless quiet. */
    private void note(String message) {
        if (!quiet) {
            err.println("weftrun: " + message);
        }
    }

    public Job(JobPlan plan, RankCommands commands, HostAgent agent, OutputSink out, OutputSink err,
               InputStream in) {
        this.plan = plan;
        this.commands = commands;
        this.agent = agent;
        this.out = out;
        this.err = err;
        this.in = in;
        this.refusals = new ThrottledLog(err::println, REFUSALS_BURST, REFUSALS_INTERVAL, (count, interval, last) ->
                "weftrun: refused " + count + " more connections in the last " + interval + " (the last " + last + ")");
        this.ranks = new RankProcess[plan.np()];
        this.exited = new boolean[plan.np()];
    }

    /** This job's published names go to {@code directory}, shared with other jobs ({@code --names}); or not. */
    public Job withNames(java.nio.file.Path directory) {
        this.names = directory;
        return this;
    }

    /** This job with relay processes, started before the ranks, which learn where they listen. */
    public Job withRelays(List<RelayPlacement> placements) {
        this.relays = List.copyOf(placements);
        return this;
    }

    /** Runs the job and returns the launcher's exit status. */
    public int run() throws IOException, InterruptedException {
        String secret = JobIdentity.newSecret();
        try (BootstrapServer bootstrap = BootstrapServer.start(plan.np(), secret,
                event -> events.add(new JobEvent.Bootstrap(event)), plan.spansHosts())) {
            server = bootstrap;
            identity = new JobIdentity(JobIdentity.newJobId(), secret, bootstrap.address());
            bootstrap.spawner(this::requestSpawn);
            if (names != null) {
                bootstrap.shareNamesIn(names);
            }
            StartupTrace.mark("weftrun", "bootstrap service listening");
            Thread hook = new Thread(this::killOnShutdown, "weftrun-shutdown");
            Runtime.getRuntime().addShutdownHook(hook); // before anything it must clean up exists
            try {
                createJobDirectory(identity.jobId());
                StartupTrace.mark("weftrun", "job directory made");
                ranksPlan = startRelays(identity);
                int started = ranksPlan == null ? 0 : startRanks(identity, ranksPlan);
                StartupTrace.mark("weftrun", started + " processes started");
                supervise();
                StartupTrace.mark("weftrun", "every process exited");
                return failure == null ? 0 : failure.status();
            } finally {
                refusals.flush();
                cleanUp();
                removeHook(hook);
                joinForwarders();
                if (outputFiles != null) {
                    outputFiles.close();
                }
                StartupTrace.mark("weftrun", "cleaned up");
            }
        }
    }

    /** Starts every process of the job (a rank's JVM, or a native site's mpirun); returns how many started. */
    private int startRanks(JobIdentity identity, JobPlan ranksPlan) {
        List<RankLaunch> launches;
        try {
            launches = commands.launches(ranksPlan, identity, jobDirectory == null ? null : jobDirectory.path());
        } catch (IllegalArgumentException e) { // a launch that cannot be expressed (e.g. Hydra's remote shell)
            fail(FAILURE_STATUS, e.getMessage() + "; nothing started");
            return 0;
        }
        if (launches.stream().anyMatch(launch -> launch.mpirun() == MpirunFlavour.OPEN_MPI)) {
            OpenMpiSessionDirectory.sweepStale(OpenMpiSessionDirectory.tmp(), OpenMpiSessionDirectory.shm());
        }
        for (RankLaunch launch : launches) {
            try {
                start(launch);
            } catch (IOException e) {
                if (!cleanedUpQuietly()) { // else the shutdown hook has been and gone over the processes
                    fail(FAILURE_STATUS, "cannot start " + launch.describe() + ": " + e.getMessage()
                            + "; aborting the job");
                }
                break;
            }
        }
        return (int) processes.stream().filter(process -> !process.launch().isRelay()).count();
    }

    /**
     * Starts the relays, each on its host, and waits until each says where it listens; returns the plan of the ranks,
     * which tells them (the {@code relays} parameter), or {@code null} when a relay failed (the job has failed).
     * A relay's exit while the job runs fails the job: the paths through it are gone.
     */
    private JobPlan startRelays(JobIdentity identity) throws InterruptedException {
        if (relays.isEmpty()) {
            return plan;
        }
        List<String> addresses = new ArrayList<>();
        for (RelayPlacement placement : relays) {
            RankLaunch launch = commands.launchRelay(plan, identity, placement);
            try {
                RankProcess relay = agent.start(launch);
                synchronized (cleanUpLock) {
                    processes.add(relay);
                    if (cleanedUp) {
                        relay.kill();
                        return null;
                    }
                }
                forwarders.add(startDaemon(new LineForwarder(relay.stderr(), err, LineTag.none()),
                        "weftrun-relay-err-" + placement.site()));
                addresses.add(RelayReady.await(relay, err, RELAY_READY_WAIT));
                relay.onExit().thenAccept(end -> events.add(new JobEvent.RelayExited(relay, end)));
            } catch (IOException e) {
                fail(FAILURE_STATUS, "cannot start " + launch.describe() + ": " + e.getMessage()
                        + "; no rank started");
                return null;
            }
        }
        StartupTrace.mark("weftrun", relays.size() + " relays listening");
        return plan.withVariable(RelayParameters.RELAYS.environmentName(), String.join(";", addresses));
    }

    /**
     * A relay ended while the job ran: the paths between its site and the others are gone, so the job is. When a
     * rank failed first (its send through the relay broke as the relay died), the relay's end is still told: it is
     * the cause.
     */
    private void onRelayExit(JobEvent.RelayExited exit) {
        RankProcess relay = exit.process();
        if (relay.endedByLauncher()) {
            return;
        }
        String what = relay.describe() + " " + exit.end().describe(relay.isLocalJvm()) + ": the paths between site "
                + relay.launch().site() + " and the other sites through it are lost";
        if (failure == null) {
            fail(FAILURE_STATUS, what + "; aborting the job");
        } else {
            err.println("weftrun: " + what);
        }
    }

    /**
     * Sweeps what SIGKILLed launchers left, then makes this job's directory (unless the job is already being
     * cleaned up); a failure only turns shm off.
     */
    private void createJobDirectory(String jobId) {
        Path base = JobDirectory.defaultBase();
        JobDirectory.sweepStale(base);
        synchronized (cleanUpLock) {
            if (cleanedUp) {
                return;
            }
            try {
                jobDirectory = JobDirectory.create(base, jobId);
            } catch (IOException | RuntimeException e) {
                note("cannot create a job directory in " + base + " (" + e + "); shared memory is off for this job");
            }
        }
    }

    /**
     * Kills every process, waits (bounded) for them to end, so that none makes a file after the deletion, and
     * removes the job directory. Runs once; a caller that comes second waits until the first has finished.
     */
    private void cleanUp() {
        synchronized (cleanUpLock) {
            if (cleanedUp) {
                return;
            }
            cleanedUp = true;
            killAll();
            awaitExits(KILL_WAIT);
            removeKilledMpirunSessions();
            deleteJobDirectory();
        }
    }

    /** An Open MPI mpirun killed before it could clean up leaves its session directory: remove it. */
    private void removeKilledMpirunSessions() {
        for (RankProcess process : processes) {
            if (process != null && !process.isAlive() && process.launch().mpirun() == MpirunFlavour.OPEN_MPI
                    && !process.launch().isRemote()) {
                OpenMpiSessionDirectory.removeOf(process.pid(), OpenMpiSessionDirectory.tmp(),
                        OpenMpiSessionDirectory.shm());
            }
        }
    }

    /**
     * Removes the job directory with the files the ranks left in it (after a crash they delete nothing), here and
     * on every other host of the job.
     */
    private void deleteJobDirectory() {
        JobDirectory dir = jobDirectory;
        if (dir == null) {
            return;
        }
        jobDirectory = null;
        if (!dir.delete()) {
            note("could not remove the job directory " + dir.path());
        }
        if (processes.isEmpty()) {
            return; // nothing was started on another host, so nothing made the directory there
        }
        try {
            for (String host : agent.removeDirectory(plan.otherHosts(), dir.path())) {
                note("could not remove the job directory " + dir.path() + " on " + host);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void forward(RankProcess process, RankLaunch launch) {
        int rank = process.rank();
        forwarders.add(startDaemon(new LineForwarder(process.stdout(), out, destination(launch, "stdout")),
                "weftrun-out-" + rank));
        forwarders.add(startDaemon(new LineForwarder(process.stderr(), err, destination(launch, "stderr")),
                "weftrun-err-" + rank));
        if (rank == 0) {
            StdinForwarder.start(in, process.stdin());
        } else {
            try {
                process.stdin().close();
            } catch (IOException ignored) {
                // the rank reads EOF either way
            }
        }
    }

    /** Where a stream's lines go: the terminal with their tag, and a file of their own with --output-filename. */
    private LineTag destination(RankLaunch launch, String stream) {
        LineTag terminal = tag(launch, stream);
        if (outputFiles == null) {
            return terminal;
        }
        if (launch.viaMpirun()) { // its lines mix its ranks, tagged only when asked
            if (stream.equals("stdout")) {
                note("--output-filename: the output of " + launch.describe() + " goes to the terminal only");
            }
            return terminal;
        }
        try {
            return outputFiles.tee(terminal, launch.rank(), stream);
        } catch (UncheckedIOException e) {
            note(e.getMessage() + "; to the terminal only");
            return terminal;
        }
    }

    /** A rank's own tag; an mpirun's lines come tagged by it ({@code --tag-output}) and are re-tagged. */
    private LineTag tag(RankLaunch launch, String stream) {
        if (!plan.tagOutput()) {
            return LineTag.none();
        }
        if (launch.mpirun() == null) {
            return LineTag.fixed(LineForwarder.tag(launch.rank(), stream));
        }
        return switch (launch.mpirun()) {
            case OPEN_MPI -> LineTag.openMpi(launch.rank());
            case HYDRA -> LineTag.hydra(launch.rank(), stream);
        };
    }

    private static Thread startDaemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * A spawn's processes, started by the supervisor (which counts and watches every process); waits until they
     * are started, not until they meet (the bootstrap service waits for that).
     */
    private void requestSpawn(org.weft.adi.bootstrap.LauncherRequests.SpawnSpec spec, int firstRank)
            throws org.weft.adi.bootstrap.RefusedRequestException {
        java.util.concurrent.CompletableFuture<String> started = new java.util.concurrent.CompletableFuture<>();
        events.add(new JobEvent.Spawn(spec, firstRank, started));
        String refusal;
        try {
            refusal = started.get();
        } catch (InterruptedException | ExecutionException e) {
            refusal = "the launcher stopped: " + e;
        }
        if (refusal != null) {
            throw new org.weft.adi.bootstrap.RefusedRequestException(org.weft.adi.ErrorClass.ERR_SPAWN, refusal);
        }
    }

    /** Starts a spawn's processes on the supervisor's thread; returns why not, or {@code null}. */
    private String spawn(JobEvent.Spawn request) {
        if (failure != null || cleanedUpQuietly()) {
            return "the job is ending";
        }
        org.weft.adi.bootstrap.LauncherRequests.SpawnSpec spec = request.spec();
        int root = spec.root();
        SpawnedRank parent = spawned.get(root);
        org.weft.launcher.plan.SpawnPlan.Root where = parent != null ? parent.where()
                : new org.weft.launcher.plan.SpawnPlan.Root(plan.appOf(root), plan.hostOf(root),
                plan.siteOf(root) == null ? "" : plan.siteOf(root).name());
        List<RankLaunch> launches;
        try {
            // ranksPlan: a spawned world reaches the others through the job's relays too (its relays parameter)
            launches = org.weft.launcher.plan.SpawnPlan.launches(ranksPlan, where, commands, identity,
                    jobDirectory == null ? null : jobDirectory.path(), spec, request.firstRank());
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        int end = request.firstRank() + launches.size();
        if (ranks.length < end) {
            ranks = Arrays.copyOf(ranks, end);
            exited = Arrays.copyOf(exited, end);
        }
        int appNum = 0;
        int inApp = 0;
        for (RankLaunch launch : launches) {
            while (inApp == spec.commands().get(appNum).maxprocs()) {
                appNum++;
                inApp = 0;
            }
            inApp++;
            spawned.put(launch.rank(), new SpawnedRank(new org.weft.launcher.plan.SpawnPlan.Root(
                    org.weft.launcher.plan.SpawnPlan.appContext(spec.commands().get(appNum), where.app()),
                    launch.host(), where.site()), request.firstRank(), launches.size()));
            try {
                start(launch);
            } catch (IOException e) {
                killWorld(request.firstRank(), launches.size());
                return "cannot start " + launch.describe() + ": " + e.getMessage();
            }
        }
        return null;
    }

    /** Starts one process of the job, watched like every other. */
    private void start(RankLaunch launch) throws IOException {
        RankProcess process = agent.start(launch);
        synchronized (cleanUpLock) {
            if (cleanedUp) { // the shutdown hook has been and gone over the processes
                process.kill();
                throw new IOException("the job is being cleaned up");
            }
            processes.add(process);
        }
        live++;
        Arrays.fill(ranks, launch.rank(), launch.rank() + launch.count(), process);
        forward(process, launch);
        process.onExit().thenAccept(end -> events.add(new JobEvent.ProcessExited(process, end)));
    }

    private boolean cleanedUpQuietly() {
        synchronized (cleanUpLock) {
            return cleanedUp;
        }
    }

    /** Kills the processes of a spawned world that cannot meet (one of them is gone). */
    private void killWorld(int first, int count) {
        for (int rank = first; rank < first + count && rank < ranks.length; rank++) {
            if (ranks[rank] != null && !exited[rank]) {
                ranks[rank].kill();
            }
        }
    }

    /** The event loop: returns when every started rank has exited (or refused to die after SIGKILL). */
    private void supervise() throws InterruptedException {
        long timeoutAt = plan.timeout() == null ? Long.MAX_VALUE : System.nanoTime() + plan.timeout().toNanos();
        Ending ending = Ending.RUNNING;
        long nextStepAt = Long.MAX_VALUE;
        while (live > 0) {
            if (failure != null && ending == Ending.RUNNING) {
                server.endJob(failure.status(), failure.message());
                ending = Ending.TOLD;
                nextStepAt = System.nanoTime() + KILL_GRACE.toNanos();
            }
            long deadline = failure == null ? timeoutAt : nextStepAt;
            JobEvent event = deadline == Long.MAX_VALUE ? events.take()
                    : events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (event == null) {
                switch (ending) {
                    case RUNNING -> fail(TIMEOUT_STATUS, "the job exceeded its time limit of "
                            + plan.timeout().toSeconds() + " s (--timeout); killing it");
                    case TOLD -> {
                        stopAll();
                        ending = Ending.STOPPED;
                        nextStepAt = System.nanoTime() + MPIRUN_GRACE.toNanos();
                    }
                    case STOPPED -> {
                        killAll();
                        ending = Ending.KILLED;
                        nextStepAt = System.nanoTime() + KILL_WAIT.toNanos();
                    }
                    case KILLED -> {
                        err.println("weftrun: " + live + " rank(s) still running after SIGKILL; giving up on them");
                        return;
                    }
                }
            } else if (event instanceof JobEvent.ProcessExited exit) {
                StartupTrace.mark("weftrun", exit.process().describe() + " exited");
                live--;
                onExit(exit);
            } else if (event instanceof JobEvent.Bootstrap(BootstrapEvent bootstrapEvent)) {
                onBootstrap(bootstrapEvent);
            } else if (event instanceof JobEvent.Spawn request) {
                request.started().complete(spawn(request));
            } else if (event instanceof JobEvent.RelayExited exit) {
                onRelayExit(exit);
            } else if (event instanceof JobEvent.LostContact(int rank) && !exited[rank]) {
                fail(FAILURE_STATUS, who(rank) + " lost its connection to the launcher; aborting the job");
            }
        }
    }

    /** A process ended: a rank's JVM, or a native site's mpirun with all its ranks. */
    private void onExit(JobEvent.ProcessExited exit) throws InterruptedException {
        RankProcess process = exit.process();
        int first = process.rank();
        int end = first + process.count();
        Arrays.fill(exited, first, end, true);
        if (failure != null || process.endedByLauncher()) {
            return; // the launcher's own doing (after Ctrl-C, its shutdown hook), not a cause
        }
        SpawnedRank child = spawned.get(first);
        if (child != null && !server.isRegistered(first)) {
            // a spawned process that never met: its spawn fails with ERR_SPAWN (the parents decide), not the job
            server.spawnedDied(child.worldFirst(), child.worldSize(), process.describe() + " "
                    + exit.end().describe(process.isLocalJvm()) + " before MPI_Init");
            killWorld(child.worldFirst(), child.worldSize());
            return;
        }
        if (exit.end().status() != 0) {
            fail(exit.end().status(), process.describe() + " " + exit.end().describe(process.isLocalJvm())
                    + culprit(process) + "; aborting the job");
            return;
        }
        for (int rank = first; rank < end && failure == null; rank++) {
            if (server.isRegistered(rank)) {
                if (!server.awaitLeft(rank, BYE_WAIT)) {
                    fail(FAILURE_STATUS, who(rank) + " exited without calling MPI_Finalize; aborting the job");
                }
            } else {
                exitedUnregistered.add(rank);
            }
        }
        checkStranded();
    }

    /** In an mpirun's failure, the rank that dropped out first (the mpirun then stopped the others). */
    private String culprit(RankProcess process) {
        if (!process.launch().viaMpirun()) {
            return "";
        }
        for (int rank : dropped) {
            if (ranks[rank] == process) {
                return " after its rank " + rank + " died";
            }
        }
        return "";
    }

    /** A rank as messages name it: {@code rank 3 (pid 1234)}, or {@code rank 3 in the mpirun of site b, ...}. */
    private String who(int rank) {
        RankProcess process = ranks[rank];
        return process.launch().viaMpirun() ? "rank " + rank + " in " + process.describe() : process.describe();
    }

    private void onBootstrap(BootstrapEvent event) {
        switch (event) {
            case BootstrapEvent.Refused refused -> refusals.log("weftrun: refused a connection from " + refused.remote()
                    + ": " + refused.reason(), "from " + refused.remote() + ": " + refused.reason());
            case BootstrapEvent.Aborted aborted -> fail(aborted.code(), "rank " + aborted.rank()
                    + " aborted the job with code " + aborted.code() + ": " + aborted.message());
            case BootstrapEvent.Violation violation -> fail(FAILURE_STATUS, "rank " + violation.rank()
                    + " broke the bootstrap protocol: " + violation.reason() + "; aborting the job");
            case BootstrapEvent.Disconnected disconnected -> watchDisconnected(disconnected.rank());
            case BootstrapEvent.Registered registered -> {
                StartupTrace.mark("weftrun", "rank " + registered.rank() + " registered");
                checkStranded();
            }
            case BootstrapEvent.Left left -> {
                // a clean leave; its exit decides
            }
        }
    }

    /** A rank that exited without registering strands the ranks that did: they wait for it forever. */
    private void checkStranded() {
        if (failure != null || exitedUnregistered.isEmpty()) {
            return;
        }
        for (int rank = 0; rank < plan.np(); rank++) {
            if (server.isRegistered(rank)) {
                int gone = exitedUnregistered.getFirst();
                fail(FAILURE_STATUS, who(gone)
                        + " exited without calling MPI_Init while other ranks did; aborting the job");
                return;
            }
        }
    }

    /** A dropped connection is usually a dying process, whose exit tells more; else it is a failure itself. */
    private void watchDisconnected(int rank) {
        dropped.add(rank);
        RankProcess process = ranks[rank];
        if (failure != null || exited[rank] || process == null) {
            return;
        }
        Thread.ofVirtual().start(() -> {
            try {
                process.onExit().get(DISCONNECT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                events.add(new JobEvent.LostContact(rank));
            } catch (Exception e) {
                // the exit is reported by its own event
            }
        });
    }

    private void fail(int status, String message) {
        if (failure == null) {
            failure = new Failure(status, message);
            err.println("weftrun: " + message);
        }
    }

    /** How far the ending of a failed job has gone. */
    private enum Ending { RUNNING, TOLD, STOPPED, KILLED }

    private void stopAll() {
        for (RankProcess process : processes) {
            if (process != null && process.isAlive()) {
                process.stop();
            }
        }
    }

    /** Kills every process and what it started (an mpirun that ended on SIGTERM may have left some). */
    private void killAll() {
        for (RankProcess process : processes) {
            if (process != null) {
                process.kill();
            }
        }
    }

    private void killOnShutdown() {
        boolean anyAlive = false;
        for (RankProcess process : processes) {
            anyAlive |= process != null && process.isAlive();
        }
        if (anyAlive) {
            err.println("weftrun: interrupted; killing the job");
            stopAll();
            awaitExits(MPIRUN_GRACE);
        }
        cleanUp();
    }

    private void awaitExits(Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        for (RankProcess process : processes) {
            long left = deadline - System.nanoTime();
            if (process != null && left > 0) {
                try {
                    process.onExit().get(left, TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    return; // killed next
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs anyway
        }
    }

    /** Lets the forwarders print the ranks' last lines; bounded, as a grandchild may hold a pipe open. */
    private void joinForwarders() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (Thread thread : forwarders) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left > 0) {
                thread.join(left);
            }
        }
    }
}
