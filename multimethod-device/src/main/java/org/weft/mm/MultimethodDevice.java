package org.weft.mm;

import org.weft.adi.jfr.Jfr;
import org.weft.adi.jfr.RankRecording;
import org.weft.adi.Device;
import org.weft.adi.DeviceException;
import org.weft.adi.DeviceMessage;
import org.weft.adi.DeviceReport;
import org.weft.adi.DeviceRequest;
import org.weft.adi.DynamicProcesses;
import org.weft.adi.ErrorClass;
import org.weft.adi.Locality;
import org.weft.adi.NativeCollectives;
import org.weft.adi.SharedMemory;
import org.weft.mm.module.nativempi.NativeMpiModule;
import org.weft.mm.module.shm.ShmModule;
import org.weft.mm.module.shm.ShmSharedMemory;
import org.weft.adi.ProbeResult;
import org.weft.adi.ProcessStart;
import org.weft.adi.Ranks;
import org.weft.adi.Results;
import org.weft.adi.concurrent.BlockingCall;
import org.weft.adi.SendMode;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.Bootstrap;
import org.weft.adi.idle.IdleStrategies;
import org.weft.mm.affinity.CpuBinding;
import org.weft.adi.trace.StartupTrace;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.shm.HostIdentity;
import org.weft.mm.progress.DoorbellParker;
import org.weft.mm.progress.ProgressEngine;
import org.weft.mm.progress.Waiters;
import org.weft.mm.proto.PointToPoint;
import org.weft.mm.select.Link;
import org.weft.mm.select.MethodOrder;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.stats.JobReport;
import org.weft.mm.stats.MethodCounters;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The ADI implemented by the multimethod device: a {@link Context} with one endpoint whose <em>enqueue
 * message</em> handler is MPI point-to-point ({@link PointToPoint}), the modules the user's method order allows
 * and that can run here, and the progress engine that polls them.
 */
public final class MultimethodDevice implements Device {
    private final WorldConfig config;
    private final Bootstrap bootstrap;
    private final String hostName;
    private final Context context;
    private final PointToPoint pointToPoint;
    private final ProgressEngine progress;
    private final Map<String, String> unavailable;
    private final String idleStrategy;
    private final boolean printReport;
    /** The site and host of each job rank this process knows, by job rank (its world's, and those it reached). */
    private final AtomicReference<Locality[]> localities;
    private final DoorbellParker parker;
    private final ProcessStart start;
    /** The shm module's memory for collectives ({@code null}: none), made on first request. */
    private volatile SharedMemory sharedMemory;
    private volatile boolean sharedMemoryResolved;
    /** The nativempi module's collectives ({@code null}: none), made on first request. */
    private volatile NativeCollectives nativeCollectives;
    private volatile boolean nativeCollectivesResolved;
    private WorldGrowth growth;
    private volatile boolean finished;

    private MultimethodDevice(WorldConfig config, Bootstrap bootstrap, String hostName, Context context,
                              PointToPoint pointToPoint, ProgressEngine progress, Map<String, String> unavailable,
                              String idleStrategy, boolean printReport, AtomicReference<Locality[]> localities,
                              DoorbellParker parker, ProcessStart start) {
        this.config = config;
        this.start = start;
        this.bootstrap = bootstrap;
        this.hostName = hostName;
        this.context = context;
        this.pointToPoint = pointToPoint;
        this.progress = progress;
        this.unavailable = unavailable;
        this.idleStrategy = idleStrategy;
        this.printReport = printReport;
        this.localities = localities;
        this.parker = parker;
    }

    /** Starts the modules, meets the other ranks through {@code bootstrap} and returns the ready device. */
    public static MultimethodDevice open(WorldConfig config, Bootstrap bootstrap) {
        return open(config, bootstrap, endpoint -> { });
    }

    /**
     * As {@link #open(WorldConfig, Bootstrap)}, letting a program below MPI (an RSR benchmark) register handlers of
     * its own on the MPI endpoint before the context meets its peers; handler id {@link PointToPoint#ENQUEUE_MESSAGE}
     * is taken. Its RSRs then go through {@link #context()}'s startpoints and arrive through {@link #progress()}.
     */
    public static MultimethodDevice open(WorldConfig config, Bootstrap bootstrap, Consumer<Endpoint> extraHandlers) {
        Parameters parameters = Parameters.of(config.parameters());
        String methods = parameters.get(MethodOrder.METHODS);
        boolean userChosen = !methods.equals(MethodOrder.METHODS.defaultValue());
        String placedOn = parameters.get(DeviceParameters.HOST);
        String hostName = placedOn.isEmpty() ? HostIdentity.localName() : placedOn;
        int cores = Runtime.getRuntime().availableProcessors(); // the host's share, before a binding narrows it
        int localRanks = parameters.get(DeviceParameters.LOCAL_SIZE);
        localRanks = localRanks > 0 ? localRanks : config.size();
        // before the modules' threads:
        CpuBinding.apply(parameters, config.rank(), localRanks, cores, hostName, System.err::println);
        Waiters waiters = new Waiters();
        Context context = new Context(config.rank(), config.size());
        PointToPoint pointToPoint = new PointToPoint(context, waiters, parameters.get(PointToPoint.FRAGMENT_SIZE));
        Endpoint mpi = context.createEndpoint();
        mpi.register(PointToPoint.ENQUEUE_MESSAGE, pointToPoint);
        context.onPeerLost(pointToPoint::peerLost);
        extraHandlers.accept(mpi);

        Map<String, String> unavailable = new LinkedHashMap<>();
        List<CommModule> running = new ArrayList<>();
        List<CommModule> deferred = new ArrayList<>();
        AtomicReference<Locality[]> met = new AtomicReference<>(); // the sites of peers, for the modules
        int firstRank = parameters.get(DeviceParameters.WORLD_FIRST_RANK);
        for (CommModule module : ModuleCatalog.create(MethodOrder.parse(methods), userChosen)) {
            if (firstRank > 0 && WORLD_ONLY.contains(module.name())) {
                unavailable.put(module.name(), "off in a spawned world (made for the first world's ranks)");
            } else if (module.startsOnDemand() && !userChosen && firstRank == 0) {
                deferred.add(module);
            } else {
                startModule(module, config, hostName, parameters, context, running, unavailable, met);
            }
        }
        Locality here = new Locality(parameters.get(DeviceParameters.SITE), HostIdentity.of(hostName).toString());
        BusinessCard[] cards = exchange(bootstrap, here, context, running, unavailable);
        List<CommModule> notStarted = List.of();
        if (!deferred.isEmpty()) {
            if (connectsAll(running, cards)) {
                deferred.forEach(m -> unavailable.put(m.name(), NOT_NEEDED));
                notStarted = deferred;
            } else { // every rank sees the same cards, so all take this branch together
                for (CommModule module : deferred) {
                    startModule(module, config, hostName, parameters, context, running, unavailable, met);
                }
                cards = exchange(bootstrap, here, context, running, unavailable);
            }
        }
        Locality[] localities = new Locality[firstRank + cards.length];
        DescriptorTable[] tables = new DescriptorTable[cards.length];
        for (int r = 0; r < cards.length; r++) {
            tables[r] = cards[r].table();
            localities[firstRank + r] = cards[r].locality();
        }
        met.set(localities);
        context.meet(tables, firstRank, mpi.id());
        String idleName = parameters.get(IdleStrategies.IDLE_STRATEGY);
        DoorbellParker parker = new DoorbellParker(running);
        waiters.alsoWake(parker::ringAll);
        ProgressEngine progress = new ProgressEngine(context, running, parameters, waiters,
                IdleStrategies.named(idleName, localRanks, cores, parker),
                ProgressEngine.handsOff(parameters.get(ProgressEngine.POLL_HAND_OFF), localRanks, cores),
                ProgressEngine.yieldsFirst(localRanks, cores));
        MultimethodDevice device = new MultimethodDevice(config, bootstrap, hostName, context, pointToPoint,
                progress, unavailable, IdleStrategies.resolve(idleName, localRanks, cores),
                parameters.get(DeviceParameters.REPORT) != 0, met, parker,
                ProcessStart.ofThisJvm(parameters.get(DeviceParameters.APPNUM),
                        parameters.get(DeviceParameters.UNIVERSE_SIZE), parameters.get(DeviceParameters.MAXPROCS),
                        config.size()));
        device.growth = new WorldGrowth(context, bootstrap, here, firstRank, parameters.get(DeviceParameters.PARENT),
                config.jobId(), met, notStarted, (module, started) -> {
                    startModule(module, config, hostName, parameters, context, started, unavailable, met);
                    if (started.contains(module)) {
                        unavailable.remove(module.name());
                        return true;
                    }
                    return false;
                }, module -> {
                    progress.add(module);
                    parker.add(module);
                }, device::awaitResult);
        return device;
    }

    /** Methods that serve one world only: a spawned world runs without them and meets other worlds over tcp. */
    private static final java.util.Set<String> WORLD_ONLY = java.util.Set.of("shm", "nativempi");

    @Override
    public DynamicProcesses dynamic() {
        return growth;
    }

    /** Why an on-demand module did not start (the report lists it with the unavailable ones). */
    static final String NOT_NEEDED = "not started: the methods before it reach every rank";

    private static void startModule(CommModule module, WorldConfig config, String hostName, Parameters parameters,
                                    Context context, List<CommModule> running, Map<String, String> unavailable,
                                    AtomicReference<Locality[]> met) {
        ModuleContext moduleContext = new ProcessModuleContext(config, hostName, parameters, context,
                context.counters(module.name()), met);
        String cause = module.unavailabilityCause(moduleContext);
        if (cause == null) {
            cause = start(module, moduleContext);
        }
        StartupTrace.mark(who(config), "module " + module.name() + (cause == null ? " started" : " off"));
        if (cause == null) {
            running.add(module);
        } else {
            unavailable.put(module.name(), cause);
        }
    }

    /** Starts {@code running} in the context and swaps business cards with every rank (collective). */
    private static BusinessCard[] exchange(Bootstrap bootstrap, Locality here, Context context,
                                           List<CommModule> running, Map<String, String> unavailable) {
        if (running.isEmpty()) {
            throw new DeviceException(ErrorClass.ERR_INTERN, "no communication method can run: " + unavailable);
        }
        context.start(running);
        try {
            byte[][] encoded = bootstrap.allGather(new BusinessCard(here, context.localTable()).encode());
            BusinessCard[] cards = new BusinessCard[encoded.length];
            for (int r = 0; r < encoded.length; r++) {
                cards[r] = BusinessCard.decode(encoded[r]);
            }
            StartupTrace.mark("rank " + context.rank(), "descriptor tables exchanged");
            return cards;
        } catch (IOException e) {
            throw new DeviceException(ErrorClass.ERR_INTERN, "bootstrap: cannot exchange descriptor tables", e);
        }
    }

    /** Whether some module of {@code running} connects every two ranks (each rank with itself too). */
    static boolean connectsAll(List<CommModule> running, BusinessCard[] cards) {
        for (int a = 0; a < cards.length; a++) {
            for (int b = a; b < cards.length; b++) {
                if (!connects(running, a, cards[a].table(), b, cards[b].table())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean connects(List<CommModule> running, int a, DescriptorTable ta, int b, DescriptorTable tb) {
        for (CommModule module : running) {
            Descriptor da = ta.find(module.name());
            Descriptor db = tb.find(module.name());
            if (da != null && db != null && module.connects(a, da, b, db)) {
                return true;
            }
        }
        return false;
    }

    private static String who(WorldConfig config) {
        return "rank " + config.rank();
    }

    private static String start(CommModule module, ModuleContext moduleContext) {
        try {
            module.init(moduleContext);
            return null;
        } catch (Exception e) {
            return "init failed: " + e;
        }
    }

    @Override
    public int rank() {
        return config.rank();
    }

    @Override
    public int size() {
        return config.size();
    }

    @Override
    public String processorName() {
        return hostName;
    }

    @Override
    public ProcessStart start() {
        return start;
    }

    @Override
    public void hint(int context, Map<String, String> hints) {
        pointToPoint.hint(context, hints);
    }

    @Override
    public SharedMemory sharedMemory() {
        if (!sharedMemoryResolved) {
            synchronized (this) {
                if (!sharedMemoryResolved) {
                    sharedMemory = makeSharedMemory();
                    sharedMemoryResolved = true;
                }
            }
        }
        return sharedMemory;
    }

    @Override
    public boolean twoLevelCollectives() {
        return Parameters.of(config.parameters()).get(DeviceParameters.COLL_TWO_LEVEL) == 1;
    }

    @Override
    public NativeCollectives nativeCollectives() {
        if (!nativeCollectivesResolved) {
            synchronized (this) {
                if (!nativeCollectivesResolved) {
                    nativeCollectives = makeNativeCollectives();
                    nativeCollectivesResolved = true;
                }
            }
        }
        return nativeCollectives;
    }

    /**
     * The nativempi module's collectives, unless it is not running or its collectives are off; their blocking calls'
     * arrival boards are files of the shm module's (none without it: the calls stay nonblocking).
     */
    private NativeCollectives makeNativeCollectives() {
        SharedMemory boards = null;
        for (CommModule module : context.modules()) {
            if (module instanceof ShmModule shm) {
                boards = new ShmSharedMemory(shm, rank -> true, false);
            }
        }
        for (CommModule module : context.modules()) {
            if (module instanceof NativeMpiModule nativeMpi) {
                return nativeMpi.collectives(this::nativeDescriptorOf, done -> await(done), boards,
                        rank -> locality(rank).sameHost(locality(rank())), this::needsNoProgress);
            }
        }
        return null;
    }

    /**
     * Whether no peer can be waiting for this process's progress now: no receive posted or awaiting data, no send
     * awaiting its receiver, nothing still to send (architecture.md, "Collectives by the site's own MPI").
     */
    private boolean needsNoProgress() {
        return context.sendsNothingPending() && pointToPoint.idle();
    }

    /** The nativempi descriptor world rank {@code worldRank} offered, or {@code null} (none, or a rank not met). */
    private Descriptor nativeDescriptorOf(int worldRank) {
        try {
            return context.knows(worldRank) ? context.startpoint(worldRank).table().find(NativeMpiModule.NAME) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The shm module's memory for collectives, unless the shm module is not running or coll_shm is 0. */
    private SharedMemory makeSharedMemory() {
        Parameters parameters = Parameters.of(config.parameters());
        if (parameters.get(DeviceParameters.COLL_SHM) == 0) {
            return null;
        }
        for (CommModule module : context.modules()) {
            if (module instanceof ShmModule shm) {
                return new ShmSharedMemory(shm, this::reachesThroughShm,
                        parameters.get(DeviceParameters.COLL_SHM_AHEAD) == 1);
            }
        }
        return null;
    }

    /** Whether this process is {@code worldRank} or reaches it through shm. */
    private boolean reachesThroughShm(int worldRank) {
        if (worldRank == rank()) {
            return true;
        }
        try {
            return context.knows(worldRank) && context.startpoint(worldRank).link().module() instanceof ShmModule;
        } catch (RuntimeException e) {
            return false; // no method reaches it: certainly not shm
        }
    }

    @Override
    public Locality locality(int worldRank) {
        Locality[] known = localities.get();
        return worldRank < known.length && known[worldRank] != null ? known[worldRank]
                : new Locality("", processorName());
    }

    @Override
    public DeviceRequest isend(MemorySegment data, int dest, int tag, int contextId, SendMode mode) {
        return restartSend(null, data, dest, tag, contextId, mode);
    }

    @Override
    public DeviceRequest irecv(MemorySegment buffer, int source, int tag, int contextId) {
        return restartRecv(null, buffer, source, tag, contextId);
    }

    @Override
    public void retire(DeviceRequest request) {
        pointToPoint.retire(request);
    }

    /** A blocking send with this thread's reusable request: no garbage per call. */
    @Override
    public int send(MemorySegment data, int dest, int tag, int contextId, SendMode mode) {
        DeviceRequest request = restartSend(pointToPoint.reusableSend(), data, dest, tag, contextId, mode);
        progress.await(request);
        if (request.failure() != null) { // say why, e.g. which peer was lost
            throw new DeviceException(request.error(), "the send failed: " + request.failure());
        }
        return request.error();
    }

    /** A blocking receive with this thread's reusable request: no garbage per call. */
    @Override
    public DeviceRequest recv(MemorySegment buffer, int source, int tag, int contextId) {
        DeviceRequest request = restartRecv(pointToPoint.reusableRecv(), buffer, source, tag, contextId);
        progress.await(request);
        return request;
    }

    /** An exchange with this thread's reusable requests (one for each side): no garbage per call. */
    @Override
    public DeviceRequest sendRecv(MemorySegment data, int dest, int sendTag, MemorySegment buffer, int source,
                                  int recvTag, int contextId) {
        return exchange(pointToPoint.reusableRecv(), pointToPoint.reusableSend(), data, dest, sendTag, buffer, source,
                recvTag, contextId);
    }

    @Override
    public DeviceRequest restartSend(DeviceRequest previous, MemorySegment data, int dest, int tag, int contextId,
                                     SendMode mode) {
        checkOpen();
        if (dest == Ranks.PROC_NULL) {
            return DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
        }
        checkSend(dest, tag);
        return pointToPoint.startSend(previous, data, dest, tag, contextId, mode);
    }

    @Override
    public DeviceRequest restartRecv(DeviceRequest previous, MemorySegment buffer, int source, int tag,
                                     int contextId) {
        checkOpen();
        if (source == Ranks.PROC_NULL) {
            return DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
        }
        checkEnvelope(source, tag);
        return pointToPoint.startRecv(previous, buffer, source, tag, contextId);
    }

    @Override
    public ProbeResult iprobe(int source, int tag, int contextId) {
        checkOpen();
        checkEnvelope(source, tag);
        progress.poll();
        return pointToPoint.iprobe(source, tag, contextId);
    }

    @Override
    public DeviceMessage improbe(int source, int tag, int contextId) {
        checkOpen();
        checkEnvelope(source, tag);
        progress.poll();
        return pointToPoint.improbe(source, tag, contextId);
    }

    @Override
    public DeviceRequest imrecv(DeviceMessage message, MemorySegment buffer) {
        checkOpen();
        return pointToPoint.imrecv(message, buffer);
    }

    @Override
    public boolean cancel(DeviceRequest request) {
        return pointToPoint.cancel(request);
    }

    @Override
    public int progress() {
        return progress.poll();
    }

    @Override
    public void await(BooleanSupplier done) {
        progress.await(done);
    }

    @Override
    public void awaitInBackground(BooleanSupplier done) {
        progress.awaitInBackground(done);
    }

    @Override
    public void abort(int code, String message) {
        bootstrap.abort(code, message); // the launcher names the rank
        // The launcher kills the job; if it cannot, do not linger.
        try {
            Thread.sleep(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(code == 0 ? 1 : code);
    }

    @Override
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        context.flushHeld(); // the bootstrap's barrier below is no wait of the device's: held sends go first
        try {
            awaitResult(BlockingCall.onThread("weft-finalize", () -> {
                if (printReport) {
                    JobReport.gather(bootstrap, report(), rank -> locality(rank).site())
                            .ifPresent(System.out::print);
                    System.out.flush();
                }
                bootstrap.barrier();
                return null;
            }));
            StartupTrace.mark(who(config), "finalize barrier passed");
        } catch (IOException e) {
            throw new UncheckedIOException("bootstrap: finalize barrier failed", e);
        } finally {
            parker.close();
            for (CommModule module : context.modules()) {
                module.shutdown();
                StartupTrace.mark(who(config), "module " + module.name() + " shut down");
            }
            bootstrap.close();
            StartupTrace.mark(who(config), "bootstrap closed");
            if (Jfr.ON) {
                RankRecording.stop();
            }
        }
    }

    /**
     * Makes progress until {@code result} is done: a send that completed may still need this process to move its
     * bytes (a TLS handshake its message waits behind, a back-pressured queue, a relay's reverse connection), and a
     * process blocked outside the device (finalize's barrier and report, a request to the launcher, a port's socket)
     * would leave its peer waiting for them forever. The thread that completes {@code result} wakes the waiting
     * threads as any completion on another thread does (the bootstrap rings no doorbell).
     */
    @Override
    public <T> T awaitResult(CompletableFuture<T> result) throws IOException {
        result.whenComplete((value, failure) -> {
            progress.wakeWatchers();
            parker.ringAll();
        });
        progress.await(result::isDone);
        return Results.valueOf(result);
    }

    /** This process's Nexus context, for programs below MPI (see {@link #open(WorldConfig, Bootstrap, Consumer)}). */
    public Context context() {
        return context;
    }

    @Override
    public DeviceReport report() {
        List<String> methods = new ArrayList<>(context.size());
        for (int r = growth.worldFirstRank(); r < growth.worldFirstRank() + context.size(); r++) {
            Link link = context.startpoint(r).selectedLink();
            methods.add(link == null ? null : link.module().name());
        }
        return new DeviceReport(rank(), hostName, idleStrategy, methods,
                context.allCounters().stream().map(MethodCounters::snapshot).toList(), unavailable,
                context.modules().stream().flatMap(m -> m.reportLines().stream()).toList());
    }

    private void checkOpen() {
        if (finished) {
            throw new DeviceException(ErrorClass.ERR_OTHER, "the device is finalized");
        }
    }

    private void checkRank(int rank, boolean anyAllowed) {
        if (Integer.compareUnsigned(rank - growth.worldFirstRank(), config.size()) < 0) {
            return; // a rank of this world: the common case, as cheap as before worlds could grow
        }
        if (!context.knows(rank) && !(anyAllowed && rank == Ranks.ANY_SOURCE)) {
            throw new DeviceException(ErrorClass.ERR_RANK, "invalid rank " + rank + " (world size " + size()
                    + (growth.worldFirstRank() > 0 ? ", job ranks from " + growth.worldFirstRank() : "") + ")");
        }
    }

    private void checkSend(int dest, int tag) {
        checkRank(dest, false);
        if (tag < 0 || tag > Ranks.TAG_UB) {
            throw new DeviceException(ErrorClass.ERR_TAG, "invalid tag " + tag + " for a send");
        }
    }

    private void checkEnvelope(int source, int tag) {
        checkRank(source, true);
        if ((tag < 0 && tag != Ranks.ANY_TAG) || tag > Ranks.TAG_UB) {
            throw new DeviceException(ErrorClass.ERR_TAG, "invalid tag " + tag + " for a receive");
        }
    }

    /** What every module of this process learns at init. */
    private record ProcessModuleContext(WorldConfig config, String hostName, Parameters parameters,
                                        Context context, MethodCounters counters,
                                        AtomicReference<Locality[]> met) implements ModuleContext {
        @Override
        public RsrSink inbound() {
            return context.inbound();
        }

        @Override
        public void holdingSends() {
            context.markHolding();
        }

        @Override
        public void peerLost(int rank, String why) {
            context.peerLost(rank, why);
        }

        @Override
        public String siteOf(int rank) {
            Locality[] localities = met.get();
            return localities == null || rank >= localities.length || localities[rank] == null ? site()
                    : localities[rank].site();
        }

        @Override
        public int rank() {
            return config.rank();
        }

        @Override
        public int size() {
            return config.size();
        }

        @Override
        public int rankLimit() {
            return Context.JOB_RANK_LIMIT;
        }

        @Override
        public String jobId() {
            return config.jobId();
        }

        @Override
        public String secret() {
            return config.secret();
        }

        @Override
        public org.weft.mm.spi.PeerCredentials credentialsWith(int peerRank) {
            org.weft.mm.spi.PeerCredentials foreign = context.foreignPeers().of(peerRank);
            return foreign != null ? foreign : ModuleContext.super.credentialsWith(peerRank);
        }

        @Override
        public boolean isOneHostJob() {
            return config.isOneHost();
        }
    }
}
