package org.weft.mm.module.nativempi;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.weft.adi.NativeCollectives;
import org.weft.adi.SharedMemory;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.RsrSink;

/**
 * The {@code nativempi} communication module: RSRs between processes of one native MPI job (one {@code mpirun}),
 * carried by the installed libmpi (Open MPI or MPICH) called through FFM, so that inside a site Weft rides on the
 * native transports (shared memory, InfiniBand/UCX).
 *
 * <ul>
 *   <li>{@link #unavailabilityCause}: a native launcher started this process (its environment says so), native
 *       access is enabled, libmpi opens and is an MPI we have a handle table for, and no one else has initialised
 *       MPI in this process.</li>
 *   <li>{@link #init}: {@code MPI_Init_thread(SERIALIZED)} (every libmpi call takes Weft's one lock), then
 *       {@code MPI_Comm_dup(MPI_COMM_WORLD)} with {@code MPI_ERRORS_RETURN}: the module's own
 *       communicator. The descriptor is the native session id and this process's native rank.</li>
 *   <li>{@link #connect}: applies to peers of the same native session only.</li>
 *   <li>{@link NativeLink#send}: one MPI message per RSR, one tag: small ones by MPI_Send, others from a send slot
 *       ({@link SendSlots}); back-pressure when every slot is in flight.</li>
 *   <li>{@link NativeLink#bulk()}: the data of a large message between direct buffers goes as one MPI message
 *       from the sender's memory into the receiver's ({@link BulkTransfers}), so libmpi's single-copy or RDMA path
 *       carries it with no copy on the Java side.</li>
 *   <li>{@link #poll()}: takes back finished send slots, tests the bulk transfers in flight and receives up to
 *       {@code nativempi_max_per_poll} RSRs from a ring of pre-posted receives ({@link Receiver}); one poller at a
 *       time.</li>
 *   <li>{@link #collectives}: the collectives of communicators wholly inside the native job, run as libmpi's own
 *       on native communicators of their members ({@link JobCollectives}, {@link NativeGroup}).</li>
 *   <li>{@link #shutdown()}: waits for sends in flight, frees the communicators, {@code MPI_Finalize}.</li>
 * </ul>
 */
public final class NativeMpiModule implements CommModule {
    public static final String NAME = "nativempi";

    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Map<String, String> environment;
    private final Consumer<String> logSink;
    private final ConcurrentHashMap<Integer, NativeLink> links = new ConcurrentHashMap<>();
    private final AtomicBoolean shutdown = new AtomicBoolean();
    /** Whether a poll is under way (guarded by libmpi's gate, which its thread holds throughout). */
    private boolean polling;
    private NativeMpiConfig config;
    private NativeLaunch launch;
    private LibMpi mpi;
    private int rank = -1;
    private long comm;
    private int nativeRank;
    private int nativeSize;
    private int threadLevel;
    private SendSlots sends;
    private Receiver receiver;
    private BulkTransfers transfers;
    /** The native job's id, the same in all its processes and different for every other native job. */
    private String sessionId;
    private Descriptor localDescriptor;
    private volatile boolean initialised;
    /** The parent of native communicators for collectives (a duplicate of the world), or 0 when they are off. */
    private long collectivesParent;
    private final NativeCollectiveCounts collectiveCounts = new NativeCollectiveCounts();
    /** False once MPI_Finalize is under way: native communicators are then freed with it, not one by one. */
    private volatile boolean libraryOpen;

    /** A module that reads this process's environment and logs to standard error. */
    public NativeMpiModule() {
        this(System.getenv(), System.err::println);
    }

    /** A module that reads the launcher's variables from {@code environment} and logs to {@code logSink}. */
    public NativeMpiModule(Map<String, String> environment, Consumer<String> logSink) {
        this.environment = Map.copyOf(environment);
        this.logSink = logSink;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized String unavailabilityCause(ModuleContext context) {
        try {
            config = NativeMpiConfig.from(context.parameters());
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        launch = NativeLaunch.of(environment);
        if (launch == null) {
            return "not started by mpirun (none of " + String.join(", ", NativeLaunch.MARKERS) + " is set)";
        }
        if (!NativeMpiModule.class.getModule().isNativeAccessEnabled()) {
            return "native access is not enabled: run java with --enable-native-access=ALL-UNNAMED (weftrun passes"
                    + " it to the ranks it starts)";
        }
        if (mpi == null) {
            String failures = openLibrary();
            if (failures != null) {
                return "libmpi not found (" + failures + ")";
            }
        }
        if (!initialised && mpi.initialized(true)) {
            return "MPI was already initialised (or finalised) in this process by someone else";
        }
        return null;
    }

    /** Opens the first library that works and can join this launch; returns {@code null}, or what went wrong with each. */
    private String openLibrary() {
        List<String> failures = new ArrayList<>();
        mpi = firstJoining(launch, config.library().isEmpty() ? launch.defaultLibraries() : List.of(config.library()),
                failures);
        return mpi == null ? String.join("; ", failures) : null;
    }

    /** The first of {@code libraries} that opens and can join {@code launch}, or null; {@code failures} says why not. */
    private static LibMpi firstJoining(NativeLaunch launch, List<String> libraries, List<String> failures) {
        // UCX catches SIGSEGV/SIGBUS for its own error reports, which the JVM needs (null checks, safepoints). It reads
        // this when libucs is loaded: with MPICH that is now, as a dependency of libmpich (Open MPI loads it later).
        NativeLibrary.setenvIfUnset("UCX_ERROR_SIGNALS", "");
        for (String library : libraries) {
            try {
                LibMpi candidate = LibMpi.open(library);
                String mismatch = launch.mismatch(candidate.flavour(), library);
                if (mismatch == null) {
                    return candidate;
                }
                failures.add(mismatch);
            } catch (LinkageError | RuntimeException e) {
                failures.add(e.getMessage());
            }
        }
        return null;
    }

    /**
     * For {@code weft info}: under each kind of native launcher (Open MPI's mpirun, MPICH's mpiexec), the library a
     * rank on this host would load, or why none; the libraries are loaded into this process (nothing is called in
     * them but {@code MPI_Get_library_version}). Without native access, says so.
     */
    public static Map<String, String> librariesOnThisHost() {
        Map<String, String> libraries = new java.util.LinkedHashMap<>();
        for (NativeLaunch.Launcher launcher : List.of(NativeLaunch.Launcher.OPEN_MPI, NativeLaunch.Launcher.MPICH)) {
            NativeLaunch launch = new NativeLaunch(launcher);
            if (!NativeMpiModule.class.getModule().isNativeAccessEnabled()) {
                libraries.put(launch.description(), "cannot tell: native access is not enabled in this JVM");
                continue;
            }
            List<String> failures = new ArrayList<>();
            LibMpi mpi = firstJoining(launch, launch.defaultLibraries(), failures);
            libraries.put(launch.description(), mpi != null ? mpi.flavour().name() + " (" + mpi.name() + ")"
                    : "no MPI library: " + String.join("; ", failures));
        }
        return libraries;
    }

    @Override
    public synchronized void init(ModuleContext context) {
        if (initialised || shutdown.get()) {
            throw new IllegalStateException("nativempi module already initialised");
        }
        String cause = mpi == null ? unavailabilityCause(context) : null;
        if (cause != null) {
            throw new IllegalStateException("nativempi unavailable: " + cause);
        }
        this.rank = context.rank();
        // SERIALIZED and one lock of ours: Open MPI 4.1 at MULTIPLE takes atomics and locks on every call, which cost
        // more than an uncontended Java lock (measured for issue 4).
        threadLevel = mpi.initThread(MpiFlavour.THREAD_SERIALIZED);
        comm = mpi.commDup(mpi.flavour().commWorld());
        nativeRank = mpi.commRankOrSize(comm, false);
        nativeSize = mpi.commRankOrSize(comm, true);
        long firstBuffer = config.eagerLimit() + 1024 + RsrPrefix.LENGTH; // room for the device's message header
        long maxMessage = config.maxRsr() + RsrPrefix.LENGTH;
        sends = new SendSlots(mpi, comm, rank, config.sendSlots(), firstBuffer, maxMessage,
                config.blockingSendLimit(), context.counters().newTraffic(), this::log);
        // deliveries are counted under libmpi's gate, the poll token
        RsrSink sink = context.inbound().countingIn(context.counters().newTraffic());
        receiver = new Receiver(mpi, comm, sink, config.postedReceives(), maxMessage, this::log);
        transfers = new BulkTransfers(mpi, comm, this::log);
        sessionId = agreeOnSessionId();
        if (config.collectives()) { // collective over the whole job, as init is
            mpi.returnErrors(mpi.flavour().commWorld()); // a native collective's error must come back, not abort
            collectivesParent = mpi.commDup(mpi.flavour().commWorld());
        }
        libraryOpen = true;
        localDescriptor = new NativeAddress(sessionId, nativeRank).toDescriptor();
        initialised = true;
    }

    @Override
    public Descriptor localDescriptor() {
        requireInitialised();
        return localDescriptor;
    }

    /**
     * The descriptor of the process of native rank {@code rank} in this process's native job, as its own
     * {@link #localDescriptor()} reads: for probes and tests that know the native layout without a bootstrap.
     */
    public Descriptor descriptorOfNativeRank(int rank) {
        requireInitialised();
        return new NativeAddress(sessionId, rank).toDescriptor();
    }

    /** This process's rank in the native job (valid after {@link #init}). */
    public int nativeRank() {
        requireInitialised();
        return nativeRank;
    }

    /** One line for reports: library, flavour, thread level, native rank and size. */
    public String describe() {
        requireInitialised();
        return mpi.flavour().name() + " (" + mpi.libraryName() + "), native rank " + nativeRank + " of "
                + nativeSize + ", session " + sessionId + ", thread level " + threadLevel
                + " (calls serialised)";
    }

    /**
     * The collectives of communicators wholly inside this native job, or {@code null} when {@code
     * nativempi_collectives} is 0. {@code descriptors} gives the {@code nativempi} descriptor of a world rank this
     * process knows ({@code null}: none); {@code await} is the device's wait, which runs Weft's progress until a
     * condition holds (a native collective's request test, or that all members came); {@code memory} (or
     * {@code null}), {@code onThisHost} and {@code deviceIdle} are for the blocking calls' arrival boards
     * ({@code JobCollectives.Boards}).
     */
    public NativeCollectives collectives(IntFunction<Descriptor> descriptors, Consumer<BooleanSupplier> await,
                                         SharedMemory memory, IntPredicate onThisHost, BooleanSupplier deviceIdle) {
        requireInitialised();
        return collectivesParent == 0 ? null : new JobCollectives(mpi, collectivesParent, sessionId, nativeRank, rank,
                descriptors, collectiveCounts, () -> libraryOpen, await,
                new JobCollectives.Boards(memory, onThisHost, deviceIdle));
    }

    @Override
    public List<String> reportLines() {
        String line = initialised ? collectiveCounts.describe(mpi.flavour().name() + "'s own") : null;
        return line == null ? List.of() : List.of(line);
    }

    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        if (!NAME.equals(remote.method())) {
            return null;
        }
        requireInitialised();
        NativeAddress address;
        try {
            address = NativeAddress.of(remote);
        } catch (IllegalArgumentException e) {
            log("ignoring the nativempi descriptor of rank " + peerRank + ": " + e.getMessage());
            return null;
        }
        if (!address.sessionId().equals(sessionId) || address.nativeRank() >= nativeSize) {
            return null;
        }
        NativeLink link = links.get(peerRank);
        return link != null ? link
                : links.computeIfAbsent(peerRank,
                        r -> new NativeLink(r, address.nativeRank(), sends, transfers, config.bulkMin()));
    }

    @Override
    public long eagerLimit() {
        return config.eagerLimit();
    }

    @Override
    public long maxRsrLength() {
        return config.maxRsr();
    }

    @Override
    public int poll() {
        // libmpi's gate is the poll token: held across the deliveries too, so the handlers' answers through this
        // module (and the Test, Irecv and Testsome calls) take it again at the cost of a compare.
        if (!initialised || shutdown.get() || !mpi.gate().tryLock()) {
            return 0;
        }
        if (polling) { // a poll from inside a delivery of this thread's poll: the outer one goes on after it
            mpi.gate().unlock();
            return 0;
        }
        polling = true;
        try {
            if (shutdown.get()) {
                return 0;
            }
            if (sends.busy()) {
                sends.reclaim();
            }
            int work = transfers.busy() ? transfers.poll() : 0;
            return work + receiver.poll(config.maxPerPoll());
        } finally {
            polling = false;
            mpi.gate().unlock();
        }
    }

    @Override
    public synchronized void shutdown() {
        if (!shutdown.compareAndSet(false, true) || !initialised) {
            return;
        }
        int unfinished = sends.drainAndClose(DRAIN_TIMEOUT_NANOS) + transfers.drainAndClose(DRAIN_TIMEOUT_NANOS);
        if (unfinished > 0) {
            log(unfinished + " sends still unfinished after " + TimeUnit.NANOSECONDS.toSeconds(DRAIN_TIMEOUT_NANOS)
                    + " s; finalising anyway");
        }
        mpi.gate().lock(); // a poll in progress finishes its bounded pass; none starts after it (shutdown is set)
        try {
            receiver.release(); // cancels the posted receives: the communicator must have none when freed
            libraryOpen = false;
            if (collectivesParent != 0) {
                mpi.commFree(collectivesParent);
            }
            mpi.commFree(comm);
            mpi.finalizeMpi();
        } catch (MpiCallException e) {
            log(e.getMessage());
        } finally {
            mpi.gate().unlock();
        }
        sends.release();
        transfers.release();
    }

    /**
     * The native job's id: native rank 0 draws one at random and broadcasts it. Launchers do not all name the job in
     * the environment (MPICH's Hydra gives only PMI_RANK, PMI_SIZE, PMI_FD), and two jobs on two hosts could reuse a
     * name; 128 random bits do not collide.
     */
    private String agreeOnSessionId() {
        UUID drawn = UUID.randomUUID();
        ByteBuffer id = ByteBuffer.allocate(16).putLong(drawn.getMostSignificantBits())
                .putLong(drawn.getLeastSignificantBits());
        ByteBuffer agreed = ByteBuffer.wrap(mpi.broadcast(id.array(), 0, comm));
        return new UUID(agreed.getLong(), agreed.getLong()).toString();
    }

    private void requireInitialised() {
        if (!initialised) {
            throw new IllegalStateException("nativempi module not initialised");
        }
    }

    private void log(String line) {
        logSink.accept("weft nativempi (rank " + rank + "): " + line);
    }
}
