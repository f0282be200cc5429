package org.weft.mm.module.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.DatagramChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.weft.adi.concurrent.SpinLock;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.Doorbell;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.RsrSink;

/**
 * The {@code shm} communication module: memory-mapped rings between the processes of one host and one job.
 *
 * <ul>
 *   <li>{@link #init}: creates this process's inbox {@code <job_dir>/shm-<rank>} with one single-producer,
 *       single-consumer ring per possible sender (layout: {@link RingLayout}), before descriptors are exchanged,
 *       so every peer's inbox exists by the time {@link #connect} maps it.</li>
 *   <li>{@link #connect}: applies to a peer of the same job, site and host (name and boot id); maps this
 *       process's ring in the peer's inbox. One {@link ShmLink} per peer, cached.</li>
 *   <li>{@link ShmLink#send}: one copy into the ring and a release store; {@code BACK_PRESSURED} with nothing taken
 *       when the ring is full.</li>
 *   <li>{@link #poll()}: on the caller's thread, one poller at a time; at most {@code shm_max_per_poll} RSRs over
 *       all rings, starting from a rotating sender so none is starved; bodies are views of the ring (no copy).
 *       No thread is created and none is woken: the progress engine's idle strategy decides how to wait.</li>
 *   <li>{@link #shutdown()}: unmaps everything and deletes the inbox; the launcher removes the job directory
 *       anyway, also after a crash.</li>
 * </ul>
 */
public final class ShmModule implements CommModule {
    public static final String NAME = "shm";

    private final Consumer<String> logSink;
    private final ConcurrentHashMap<Integer, ShmLink> links = new ConcurrentHashMap<>();
    /** The poller's token: not reentrant, so a handler that polls from inside a delivery gets 0, not a mess. */
    private final SpinLock polling = new SpinLock();
    private final AtomicBoolean shutdown = new AtomicBoolean();
    /** Bound once: a method reference made per poll would be garbage per poll. */
    private final Consumer<String> logger = this::log;
    private ModuleContext context;
    private RsrSink sink;
    private ShmConfig config;
    private HostIdentity host;
    private Arena arena;
    private Path inboxFile;
    /** Every sender's ring, this process's own included. */
    private RingReader[] allReaders;
    /**
     * The rings polled: every other rank's, and this process's own only once a link to itself exists (with the
     * self method excluded): an unused ring polled on every pass would only slow the wait. None before
     * {@link #init} and after {@link #shutdown}: an empty poll then needs no other check (each costs a waiting loop
     * a load or two on every pass).
     */
    private volatile RingReader[] readers = new RingReader[0];
    private int nextStart;
    private Descriptor localDescriptor;
    /** This process's doorbell socket (its port is in the inbox header) and the doorbell around it. */
    private DatagramChannel bell;
    private ShmDoorbell doorbell;
    /** Reads of peers' memory for large messages, bound on first use; {@code null} when off or not possible here. */
    private LazyCrossMemory crossMemory;
    private volatile boolean initialised;

    /** A module that logs its one-line reports to standard error. */
    public ShmModule() {
        this(System.err::println);
    }

    /** A module that hands its one-line reports to {@code logSink} (tests capture them). */
    public ShmModule(Consumer<String> logSink) {
        this.logSink = logSink;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String unavailabilityCause(ModuleContext context) {
        ShmConfig c;
        try {
            c = ShmConfig.from(context.parameters());
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (context.size() < 2) {
            return "a world of one process has no peer to share memory with";
        }
        if (c.jobDir() == null) {
            return "no job directory: parameter " + ShmParameters.JOB_DIR.name() + " ("
                    + ShmParameters.JOB_DIR.environmentName() + ") is unset, as outside weftrun";
        }
        if (!Files.isDirectory(c.jobDir())) {
            return "the job directory " + c.jobDir() + " does not exist";
        }
        if (!Files.isWritable(c.jobDir())) {
            return "the job directory " + c.jobDir() + " is not writable";
        }
        long needed = RingLayout.fileLength(context.size(), c.ringSize());
        try {
            long usable = Files.getFileStore(c.jobDir()).getUsableSpace();
            if (usable < needed) {
                return "the job directory " + c.jobDir() + " has " + usable + " bytes free, less than the "
                        + needed + " of one inbox (lower " + ShmParameters.RING_SIZE.name() + ")";
            }
        } catch (IOException e) {
            return "cannot tell the free space of " + c.jobDir() + ": " + e.getMessage();
        }
        return null;
    }

    @Override
    public synchronized void init(ModuleContext context) throws IOException {
        if (initialised || shutdown.get()) {
            throw new IllegalStateException("shm module already initialised");
        }
        this.context = context;
        this.sink = context.inbound().countingIn(context.counters().newTraffic()); // deliveries: under polling
        this.config = ShmConfig.from(context.parameters());
        if (config.jobDir() == null) {
            throw new IllegalStateException("parameter " + ShmParameters.JOB_DIR.name() + " is unset");
        }
        this.host = HostIdentity.of(context.hostName());
        this.inboxFile = Inbox.path(config.jobDir(), context.rank()).toAbsolutePath();
        this.arena = Arena.ofShared();
        this.bell = ShmDoorbell.openBell();
        try {
            MemorySegment inbox = Inbox.create(inboxFile, context.rank(), context.size(), config.ringSize(),
                    ShmDoorbell.portOf(bell), arena);
            this.doorbell = new ShmDoorbell(inbox.asSlice(0, RingLayout.FILE_HEADER_LENGTH), bell, this::anyRecords,
                    () -> readers.length > 0);
            this.allReaders = new RingReader[context.size()];
            for (int sender = 0; sender < allReaders.length; sender++) {
                MemorySegment ring = inbox.asSlice(RingLayout.ringOffset(sender, config.ringSize()),
                        RingLayout.ringLength(config.ringSize()));
                allReaders[sender] = new RingReader(sender, ring, config.ringSize());
            }
            int self = context.rank();
            this.readers = IntStream.range(0, allReaders.length).filter(r -> r != self)
                    .mapToObj(r -> allReaders[r]).toArray(RingReader[]::new);
        } catch (FileAlreadyExistsException e) {
            arena.close();
            bell.close();
            throw new FileAlreadyExistsException(inboxFile.toString(), null,
                    "another module or job owns this inbox (is job_dir shared between jobs?)");
        } catch (IOException | RuntimeException e) {
            arena.close();
            bell.close();
            Files.deleteIfExists(inboxFile); // ours: created before the failure
            throw e;
        }
        this.localDescriptor = new ShmAddress(host, context.jobId(), context.site(), inboxFile).toDescriptor();
        this.crossMemory = config.singleCopy() ? crossMemoryReads() : null;
        this.initialised = true;
    }

    private LazyCrossMemory crossMemoryReads() {
        String unavailable = CrossMemoryAttach.precondition();
        if (unavailable == null) {
            return new LazyCrossMemory(this::log);
        }
        log(LazyCrossMemory.readsOff(unavailable));
        return null;
    }

    /** Whether this module bound cross-memory attach yet (it does at the first large message read; tests). */
    boolean crossMemoryBound() {
        return crossMemory != null && crossMemory.bound();
    }

    @Override
    public Descriptor localDescriptor() {
        requireInitialised();
        return localDescriptor;
    }

    /** The inbox file of this process (valid after {@link #init}). */
    public Path inboxFile() {
        requireInitialised();
        return inboxFile;
    }

    /**
     * The link to {@code peerRank}, made on first use by mapping this process's ring in the peer's inbox;
     * {@code null} when {@code remote} is not an shm descriptor of this job, host and site.
     */
    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        if (!NAME.equals(remote.method())) {
            return null;
        }
        requireInitialised();
        ShmAddress address;
        try {
            address = ShmAddress.of(remote);
        } catch (IllegalArgumentException e) {
            log("ignoring the shm descriptor of rank " + peerRank + ": " + e.getMessage());
            return null;
        }
        if (!address.host().sameHostAs(host) || !address.jobId().equals(context.jobId())
                || !address.site().equals(context.site())) {
            return null;
        }
        if (peerRank == context.rank() && !shutdown.get()) {
            readers = allReaders;
        }
        ShmLink link = links.get(peerRank);
        return link != null ? link : links.computeIfAbsent(peerRank, rank -> open(rank, address.inbox()));
    }

    /** Two ranks of one job, site and host, whose descriptors both read. */
    @Override
    public boolean connects(int rankA, Descriptor a, int rankB, Descriptor b) {
        try {
            ShmAddress x = ShmAddress.of(a);
            ShmAddress y = ShmAddress.of(b);
            return x.host().sameHostAs(y.host()) && x.jobId().equals(y.jobId()) && x.site().equals(y.site());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The directory of this job's shared files (valid after {@link #init}). */
    Path jobDirectory() {
        requireInitialised();
        return config.jobDir();
    }

    /** The link to {@code peerRank} made so far, or {@code null}. */
    ShmLink linkTo(int peerRank) {
        return links.get(peerRank);
    }

    private ShmLink open(int peerRank, Path peerInbox) {
        if (shutdown.get()) {
            throw new IllegalStateException("shm module shut down");
        }
        try {
            Inbox.PeerInbox inbox = Inbox.mapFor(peerInbox, context.rank(), arena);
            PeerMemoryReads reads = crossMemory == null ? null : new PeerMemoryReads(crossMemory,
                    inbox.header().get(RingAccess.LONG, RingLayout.OWNER_PID_OFFSET), peerRank, logger);
            return new ShmLink(peerRank, new RingWriter(inbox.ring(), inbox.capacity()),
                    new ShmDoorbell.PeerBell(inbox.header(), bell), context.counters().newTraffic(), reads);
        } catch (IOException e) {
            throw new UncheckedIOException("shm: cannot map the inbox of rank " + peerRank, e);
        }
    }

    @Override
    public long eagerLimit() {
        return config.eagerLimit();
    }

    /**
     * A quarter of the ring: rendezvous data then travels as at least four fragments in flight, so the receiver
     * copies one out while the sender copies the next in.
     */
    @Override
    public long maxRsrLength() {
        return config.ringSize() / 4;
    }

    @Override
    public Doorbell doorbell() {
        return doorbell;
    }

    @Override
    public int poll() {
        RingReader[] readers = this.readers;
        if (!anyRecords(readers) || !polling.tryLock()) {
            return 0; // the empty poll, a waiting rank's whole loop, costs a few loads and no atomic write
        }
        try {
            if (shutdown.get()) {
                return 0;
            }
            int budget = config.maxPerPoll();
            int n = readers.length;
            int start = nextStart;
            nextStart = start + 1 == n ? 0 : start + 1;
            int delivered = 0;
            for (int i = 0, r = start; i < n && delivered < budget; i++, r = r + 1 == n ? 0 : r + 1) {
                delivered += readers[r].poll(budget - delivered, sink, logger);
            }
            return delivered;
        } finally {
            polling.unlock();
        }
    }

    private boolean anyRecords() {
        return anyRecords(this.readers);
    }

    private static boolean anyRecords(RingReader[] readers) {
        for (RingReader reader : readers) {
            if (reader.mayHaveRecords()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized void shutdown() {
        if (!shutdown.compareAndSet(false, true) || !initialised) {
            return;
        }
        links.values().forEach(ShmLink::close);
        readers = new RingReader[0];
        polling.lock(); // a poll in progress finishes its bounded pass; none starts after it (never given back)
        try {
            bell.close();
        } catch (IOException e) {
            log("cannot close the doorbell socket: " + e.getMessage());
        }
        arena.close();
        try {
            Files.deleteIfExists(inboxFile);
        } catch (IOException e) {
            log("cannot delete " + inboxFile + ": " + e.getMessage());
        }
    }

    private void requireInitialised() {
        if (!initialised) {
            throw new IllegalStateException("shm module not initialised");
        }
    }

    private void log(String line) {
        logSink.accept("weft shm (rank " + context.rank() + "): " + line);
    }
}
