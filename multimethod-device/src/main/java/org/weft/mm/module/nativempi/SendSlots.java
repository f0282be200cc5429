package org.weft.mm.module.nativempi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.weft.adi.concurrent.ReentrantSpinLock;
import org.weft.mm.spi.SendStatus;
import org.weft.mm.stats.MethodCounters;

/**
 * The sends of this process in flight in libmpi: a fixed number of slots, each a native buffer and the
 * {@code MPI_Request} of the {@code MPI_Isend} that reads it.
 *
 * <p>A small RSR (up to {@code nativempi_blocking_send_limit}, within libmpi's own eager limit) is copied into one
 * scratch buffer and sent with {@code MPI_Send}, which returns as soon as libmpi has taken it: no request to test
 * later, so a ping-pong makes one libmpi call per send (measured for issue 4: Isend plus the Testsome that reclaims its
 * slot cost a rank most of a microsecond). A larger RSR is copied into a free slot and an MPI_Isend started on it
 * (an MPI_Send could wait for the receiver, which receives only when it polls), so the caller's
 * buffers are free when {@link #send} returns {@link SendStatus#SENT}, as the SPI asks. When no slot is free,
 * {@code MPI_Testsome} over all slots takes back the finished ones; when none has finished, the send answers
 * {@link SendStatus#BACK_PRESSURED} having taken nothing. The requests sit in one native array so one Testsome
 * covers them all (completed entries become {@code MPI_REQUEST_NULL}, which libmpi skips).
 *
 * <p>Thread-safe: libmpi's gate guards the slots too, held across a send's copy and its libmpi call (one lock for
 * both); the poller, which holds the gate throughout its poll, takes finished slots back ({@link #reclaim}).
 */
final class SendSlots {
    /** {@code MPI_UNDEFINED}, the outcount of a Testsome that found no active request (Open MPI and MPICH). */
    private static final int UNDEFINED = -32766;
    private static final long MIN_SLOT_BYTES = 4096;

    private final LibMpi mpi;
    private final long comm;
    private final int sourceRank;
    private final long maxMessage;
    private final Consumer<String> log;
    /** What these slots sent (under {@link #lock}, libmpi's gate). */
    private final MethodCounters.Traffic traffic;
    private final ReentrantSpinLock lock;
    private final Arena arena = Arena.ofShared();
    private final int count;
    private final MemorySegment requests;
    /** One view per slot of its entry in {@link #requests}, made once (a slice per send would be garbage). */
    private final MemorySegment[] requestCells;
    private final MemorySegment outCount;
    private final MemorySegment indices;
    private final MemorySegment statuses;
    private final SlotBuffer[] buffers;
    /** Where small RSRs are assembled for MPI_Send (under the lock). */
    private final SlotBuffer small;
    private final long blockingLimit;
    private final int[] free;
    private int freeTop;
    private int inFlight;
    private boolean closed;

    SendSlots(LibMpi mpi, long comm, int sourceRank, int count, long initialBytes, long maxMessage,
            long blockingLimit, MethodCounters.Traffic traffic, Consumer<String> log) {
        this.mpi = mpi;
        this.traffic = traffic;
        this.lock = mpi.gate();
        this.comm = comm;
        this.sourceRank = sourceRank;
        this.maxMessage = maxMessage;
        this.log = log;
        this.count = count;
        long handleSize = mpi.flavour().handleLayout().byteSize();
        this.requests = arena.allocate(handleSize * count, 8);
        this.requestCells = new MemorySegment[count];
        this.outCount = arena.allocate(JAVA_INT);
        this.indices = arena.allocate(JAVA_INT, count);
        this.statuses = arena.allocate(mpi.flavour().statusSize() * count, 8);
        this.buffers = new SlotBuffer[count];
        this.free = new int[count];
        long slotBytes = Math.max(MIN_SLOT_BYTES, Math.min(initialBytes, maxMessage));
        this.blockingLimit = Math.min(blockingLimit, maxMessage);
        this.small = new SlotBuffer(Math.max(MIN_SLOT_BYTES, this.blockingLimit));
        for (int slot = 0; slot < count; slot++) {
            requestCells[slot] = requests.asSlice(slot * handleSize, handleSize);
            mpi.writeHandle(requests, slot * handleSize, mpi.flavour().requestNull());
            buffers[slot] = new SlotBuffer(slotBytes);
            free[freeTop++] = slot;
        }
    }

    /** Copies one RSR into a slot and starts sending it to {@code nativeRank}. */
    SendStatus send(int nativeRank, int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        long length = RsrPrefix.LENGTH + header.remaining() + payload.byteSize();
        if (length > maxMessage) {
            throw new IllegalArgumentException("an RSR of " + (length - RsrPrefix.LENGTH) + " bytes exceeds the "
                    + (maxMessage - RsrPrefix.LENGTH) + " one nativempi message carries");
        }
        lock.lock();
        try {
            if (closed) {
                return SendStatus.FAILED;
            }
            if (length <= blockingLimit) {
                MemorySegment message = small.fill(length, endpointId, handlerId, sourceRank, header, payload);
                int rc = mpi.send(message, (int) length, nativeRank, RsrPrefix.TAG, comm);
                if (rc != MpiFlavour.SUCCESS) {
                    log.accept("MPI_Send to native rank " + nativeRank + " failed: " + mpi.errorString(rc));
                    return SendStatus.FAILED;
                }
                traffic.sent(length - RsrPrefix.LENGTH);
                return SendStatus.SENT;
            }
            if (freeTop == 0 && reclaimLocked() == 0) {
                return SendStatus.BACK_PRESSURED;
            }
            int slot = free[--freeTop];
            MemorySegment message = buffers[slot].fill(length, endpointId, handlerId, sourceRank, header, payload);
            int rc = mpi.isend(message, (int) length, nativeRank, RsrPrefix.TAG, comm, requestCells[slot]);
            if (rc != MpiFlavour.SUCCESS) {
                free[freeTop++] = slot;
                log.accept("MPI_Isend to native rank " + nativeRank + " failed: " + mpi.errorString(rc));
                return SendStatus.FAILED;
            }
            inFlight++;
            traffic.sent(length - RsrPrefix.LENGTH);
            return SendStatus.SENT;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes back the slots whose sends have finished; returns how many. The poller calls it holding libmpi's gate
     * already, so taking it here costs a compare.
     */
    int reclaim() {
        lock.lock();
        try {
            return reclaimLocked();
        } finally {
            lock.unlock();
        }
    }

    /** Whether any send is still in libmpi's hands (read without the lock: a hint for the poller). */
    boolean busy() {
        return inFlight > 0;
    }

    private int reclaimLocked() {
        if (inFlight == 0) {
            return 0;
        }
        int rc = mpi.testsome(count, requests, outCount, indices, statuses);
        int done = outCount.get(JAVA_INT, 0);
        if (rc != MpiFlavour.SUCCESS) {
            log.accept("MPI_Testsome on sends failed: " + mpi.errorString(rc));
        }
        if (done == UNDEFINED || done <= 0) {
            return 0;
        }
        for (int i = 0; i < done; i++) {
            free[freeTop++] = indices.getAtIndex(JAVA_INT, i);
        }
        inFlight -= done;
        return done;
    }

    /**
     * Waits (backing off) until every send has finished or {@code timeoutNanos} passed, then refuses sends from
     * then on. Returns the number of sends still unfinished (their requests are left to MPI_Finalize).
     */
    int drainAndClose(long timeoutNanos) {
        Drain.until(() -> {
            lock.lock();
            try {
                reclaimLocked();
                return inFlight == 0;
            } finally {
                lock.unlock();
            }
        }, timeoutNanos);
        lock.lock();
        try {
            reclaimLocked();
            closed = true;
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    /** Frees the native memory; only after {@link #drainAndClose} and MPI_Finalize, when libmpi reads none. */
    void release() {
        for (SlotBuffer buffer : buffers) {
            buffer.release();
        }
        small.release();
        arena.close();
    }

    /** The native buffer of one slot, grown (rarely) to the largest RSR it has carried, within the limit. */
    private final class SlotBuffer {
        private Arena owner;
        private MemorySegment memory;
        /** A view of {@link #memory} for copying headers in without a temporary segment. */
        private ByteBuffer view;

        SlotBuffer(long bytes) {
            allocate(bytes);
        }

        MemorySegment fill(long length, int endpointId, int handlerId, int source, ByteBuffer header,
                MemorySegment payload) {
            if (length > memory.byteSize()) {
                owner.close();
                allocate(Math.min(maxMessage, Long.highestOneBit(length - 1) << 1));
            }
            RsrPrefix.write(memory, endpointId, handlerId, source);
            int headerLength = header.remaining();
            view.put(RsrPrefix.LENGTH, header, header.position(), headerLength);
            MemorySegment.copy(payload, 0, memory, RsrPrefix.LENGTH + headerLength, payload.byteSize());
            return memory;
        }

        void release() {
            owner.close();
        }

        private void allocate(long bytes) {
            owner = Arena.ofShared();
            memory = owner.allocate(bytes, 64);
            view = memory.asByteBuffer();
        }
    }
}
