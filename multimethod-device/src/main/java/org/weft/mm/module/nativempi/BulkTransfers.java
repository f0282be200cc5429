package org.weft.mm.module.nativempi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.weft.adi.concurrent.ReentrantSpinLock;
import org.weft.mm.module.CacheSizedCopy;
import org.weft.mm.spi.BulkTransfer;

/**
 * The bulk transfers of this process in libmpi's hands ({@link BulkTransfer}): each one MPI message moved straight
 * between user memory on the two sides — an {@code MPI_Isend} from the sender's data, an {@code MPI_Irecv} posted
 * into the receiver's buffer before the receiver clears the sender to send — so libmpi's own large-message path
 * (single-copy shared memory, RDMA) carries it with no copy on the Java side.
 *
 * <p>Each transfer has a tag of its own on the module's communicator, derived from the receiver's request id (which
 * both sides know); they lie above the one RSR tag and below 32767, the smallest {@code MPI_TAG_UB} the standard
 * allows. Ids that collide modulo {@link #TAGS} are told apart by MPI's non-overtaking order, as the sender starts
 * transfers in the order of the receiver's clears.
 *
 * <p>A Java heap array's data goes through a native copy ({@link StagingBuffers}): the collector may move the array
 * while libmpi holds an address. Still one MPI message, instead of fragments each copied in and out of RSR slots.
 *
 * <p>Thread-safe: libmpi's gate guards the transfers too, one lock for both. With a lock of their own, a poller
 * (which holds the gate) delivering a CTS that starts a transfer waited for that lock while a thread starting a
 * transfer outside a poll held it and waited for the gate to call libmpi: two threads ping-ponging large messages
 * deadlocked within seconds. {@link #poll()} (the module's one poller) tests every active transfer with
 * {@code MPI_Test} and tells the listeners of finished ones after giving the lock back (a poll from the module still
 * holds the gate then, as it does across its deliveries).
 */
final class BulkTransfers {
    static final int FIRST_TAG = 0x400;
    static final int TAGS = 0x4000;
    /** One MPI message counts its bytes in an {@code int}. */
    static final long MAX_BYTES = Integer.MAX_VALUE;
    /**
     * Smallest heap array moved by a bulk transfer: below it the two copies through a staging buffer cost more than
     * the RSR fragments, which overlap their copies with libmpi's transfer (measured: 128 KiB 39–45 µs in fragments,
     * 64–74 µs staged; 1 MiB 343–464 µs in fragments, 163–168 µs staged).
     */
    static final long HEAP_MIN_BYTES = 1L << 20;

    private final LibMpi mpi;
    private final long comm;
    private final Consumer<String> log;
    /** libmpi's gate. */
    private final ReentrantSpinLock lock;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment flag;
    private final MemorySegment status;
    private final ArrayList<Transfer> active = new ArrayList<>();
    /** Request cells of finished transfers, for the next ones. */
    private final ArrayDeque<MemorySegment> freeCells = new ArrayDeque<>();
    /** The poller's list of finished transfers, told after the lock is given back (reused: no garbage per poll). */
    private final ArrayList<Transfer> finished = new ArrayList<>();
    /** The size of {@link #active}, for the poller's look without the lock. */
    private volatile int activeCount;
    private boolean closed;

    /** Native copies of heap arrays' data (libmpi cannot keep an array's address). */
    private final StagingBuffers staging = new StagingBuffers();

    /**
     * One transfer in flight. {@code memory} is held so that a direct buffer stays reachable (and its memory
     * allocated) while libmpi reads or writes it; {@code staged} is the native buffer libmpi uses instead when
     * {@code memory} is a heap array ({@code null} otherwise).
     */
    private static final class Transfer {
        final long id;
        final MemorySegment request;
        final MemorySegment memory;
        final MemorySegment staged;
        final boolean receive;
        final BulkTransfer.Listener listener;
        String failure;

        Transfer(long id, MemorySegment request, MemorySegment memory, MemorySegment staged, boolean receive,
                 BulkTransfer.Listener listener) {
            this.id = id;
            this.request = request;
            this.memory = memory;
            this.staged = staged;
            this.receive = receive;
            this.listener = listener;
        }
    }

    BulkTransfers(LibMpi mpi, long comm, Consumer<String> log) {
        this.mpi = mpi;
        this.lock = mpi.gate();
        this.comm = comm;
        this.log = log;
        this.flag = arena.allocate(JAVA_INT);
        this.status = arena.allocate(mpi.flavour().statusSize(), 8);
    }

    /** The tag of transfer {@code id}. */
    static int tagOf(long id) {
        return FIRST_TAG + (int) (id & (TAGS - 1));
    }

    /**
     * Starts moving {@code memory} (at most {@link #MAX_BYTES}) to or from native rank {@code nativeRank} as
     * transfer {@code id}; a start libmpi refuses is told to {@code listener} at once.
     */
    void start(boolean receive, int nativeRank, long id, MemorySegment memory, BulkTransfer.Listener listener) {
        long bytes = memory.byteSize();
        MemorySegment staged = memory.isNative() ? null : staging.take(bytes);
        if (staged != null && !receive) {
            CacheSizedCopy.copy(memory, 0, staged, 0, bytes); // before the lock: other transfers go on meanwhile
        }
        String failure;
        lock.lock();
        try {
            failure = closed ? "nativempi is shut down"
                    : startLocked(receive, nativeRank, id, memory, staged, listener);
        } finally {
            lock.unlock();
        }
        if (failure != null) {
            if (staged != null) {
                staging.release(staged);
            }
            listener.failed(failure);
        }
    }

    private String startLocked(boolean receive, int nativeRank, long id, MemorySegment memory, MemorySegment staged,
                               BulkTransfer.Listener listener) {
        MemorySegment cell = freeCells.poll();
        if (cell == null) {
            cell = arena.allocate(mpi.flavour().handleLayout());
        }
        int count = Math.toIntExact(memory.byteSize());
        MemorySegment buffer = staged != null ? staged : memory;
        int rc = receive ? mpi.irecv(buffer, count, nativeRank, tagOf(id), comm, cell)
                : mpi.isend(buffer, count, nativeRank, tagOf(id), comm, cell);
        if (rc != MpiFlavour.SUCCESS) {
            freeCells.add(cell);
            return (receive ? "MPI_Irecv" : "MPI_Isend") + " of a bulk transfer failed: " + mpi.errorString(rc);
        }
        active.add(new Transfer(id, cell, memory, staged, receive, listener));
        activeCount = active.size();
        return null;
    }

    /**
     * Cancels receive {@code id} in libmpi (a receive no sender will fill must not stay posted: it would take the
     * data of a later transfer with the same tag) and tells its listener that it failed; nothing if it has ended.
     */
    void cancelReceive(long id) {
        Transfer cancelled = null;
        lock.lock();
        try {
            for (int i = 0; i < active.size() && cancelled == null; i++) {
                Transfer t = active.get(i);
                if (t.receive && t.id == id) {
                    cancelled = t;
                    active.set(i, active.getLast());
                    active.removeLast();
                    activeCount = active.size();
                    mpi.cancelAndWait(t.request, status);
                    freeCells.add(t.request);
                }
            }
        } finally {
            lock.unlock();
        }
        if (cancelled != null) {
            cancelled.failure = "the receive was cancelled: its sender was not cleared to send";
            tell(cancelled);
        }
    }

    /** Whether any transfer is in flight (a hint read without the lock). */
    boolean busy() {
        return activeCount > 0;
    }

    /** Tests every transfer in flight; tells the finished ones' listeners; returns how many finished. */
    int poll() {
        if (!lock.tryLock()) {
            return 0; // a start is under way; the next poll tests
        }
        try {
            for (int i = active.size() - 1; i >= 0; i--) {
                Transfer t = active.get(i);
                int rc = mpi.test(t.request, flag, status);
                if (rc != MpiFlavour.SUCCESS) {
                    t.failure = "MPI_Test of a bulk " + (t.receive ? "receive" : "send") + " failed: "
                            + mpi.errorString(rc);
                } else if (flag.get(JAVA_INT, 0) == 0) {
                    continue;
                }
                finished.add(t);
                active.set(i, active.getLast());
                active.removeLast();
                freeCells.add(t.request);
            }
            activeCount = active.size();
        } finally {
            lock.unlock();
        }
        return tellFinished();
    }

    private int tellFinished() {
        int n = finished.size();
        for (int i = 0; i < n; i++) {
            tell(finished.get(i));
        }
        finished.clear();
        return n;
    }

    /** Tells the listener of {@code t}, which has left {@link #active}, how it ended; unstages its data. */
    private void tell(Transfer t) {
        if (t.staged != null) {
            if (t.receive && t.failure == null) {
                CacheSizedCopy.copy(t.staged, 0, t.memory, 0, t.memory.byteSize());
            }
            staging.release(t.staged);
        }
        if (t.failure == null) {
            t.listener.done();
        } else {
            log.accept(t.failure);
            t.listener.failed(t.failure);
        }
    }

    /**
     * At shutdown: waits up to {@code timeoutNanos} for sends in flight, cancels the receives no sender will fill,
     * and refuses transfers from then on; their listeners hear of the failure. Returns the sends left unfinished.
     */
    int drainAndClose(long timeoutNanos) {
        Drain.until(() -> {
            poll();
            return !hasSendsInFlight();
        }, timeoutNanos);
        List<Transfer> left;
        lock.lock();
        try {
            closed = true;
            left = List.copyOf(active);
            active.clear();
            activeCount = 0;
            for (Transfer t : left) {
                if (t.receive) {
                    mpi.cancelAndWait(t.request, status);
                }
            }
        } finally {
            lock.unlock();
        }
        int unfinishedSends = 0;
        for (Transfer t : left) {
            unfinishedSends += t.receive ? 0 : 1;
            t.listener.failed("nativempi shut down with the transfer in flight");
        }
        return unfinishedSends;
    }

    private boolean hasSendsInFlight() {
        lock.lock();
        try {
            return active.stream().anyMatch(t -> !t.receive);
        } finally {
            lock.unlock();
        }
    }

    /** Frees the request cells and staging buffers; only after MPI_Finalize. */
    void release() {
        arena.close();
        staging.close();
    }
}
