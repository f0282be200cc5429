package org.weft.core.rma;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

import org.weft.adi.Device;
import org.weft.adi.SharedMemory;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.datatype.Typemap;

/**
 * A window whose members all share one host and whose memory lies, at every member, in {@link SharedBuffers}
 * (buffers from {@code MPI.newByteBuffer}): each member maps every other's window memory and <em>control
 * block</em>, and the origin does the work itself — a put or get is a copy between its buffer and the mapping, an
 * accumulate applies the operation to the mapping ({@link WindowAccess}), a lock is an atomic add on the
 * target's lock line. No message, no thread at the target: a passive-target epoch completes while the target
 * computes, and the window costs nothing while idle.
 *
 * <p>A control block holds, each on its own 128-byte line: the passive-target lock (a fair reader-writer ticket
 * lock, Mellor-Crummey and Scott's: a requests and a completions word, each counting shared requests in its low
 * half and exclusive ones in its high half; see {@link #lock}), the accumulate lock (1 while an origin applies an
 * accumulate, get-accumulate, fetch-and-op or compare-and-swap there, so they are atomic per element against each
 * other, whatever the type), the count of members asleep waiting for either (or for a fence), whom a release
 * wakes, and, in member 0's block, the count of fence arrivals ({@link #fence}). A wait
 * goes through the device's wait (spin, yield, then park on the doorbell), as the shared-memory collectives' do.
 * Locks are granted in arrival order (the order of the atomic adds on the requests word), save that shared
 * requests in a row hold the lock together: a waiting exclusive request holds back every newer shared one, so a
 * stream of shared locks cannot starve it (as Open MPI's and MPICH's lock queues).
 */
final class SharedWindow {
    /** Ints each member contributes to the window's creation gather ({@link Offer#ints}). */
    static final int OFFER_INTS = 15;
    private static final long LINE = 128;
    /** The lock line: the requests word here, the completions word at {@link #COMPLETIONS} after it. */
    private static final long LOCK = 0;
    private static final long COMPLETIONS = Long.BYTES;
    /** The halves of the lock's words: shared requests counted in the low one, exclusive ones in the high one. */
    private static final long SHARED_HALF = 0xFFFF_FFFFL;
    private static final long EXCLUSIVE_HALF = ~SHARED_HALF;
    private static final long EXCLUSIVE_ONE = 1L << 32;
    private static final long ACCUMULATE = LINE;
    private static final long SLEEPERS = 2 * LINE;
    /** Member 0's block only: fences arrived at ({@link #fence}). */
    private static final long FENCES = 3 * LINE;
    private static final long CONTROL_BYTES = 4 * LINE;
    /** How long a fence spins on the arrivals before it waits through the device (when the ranks have cores). */
    private static final long FENCE_SPIN_NANOS = 2_000;
    /** Yields a fence makes before it waits through the device, when ranks outnumber cores. */
    private static final int FENCE_YIELDS = 8;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final int NONE = 0;
    private static final int WITH_MEMORY = 1;
    private static final int EMPTY = 2;

    private final Device device;
    private final SharedMemory shared;
    private final SharedBuffers buffers;
    private final Arena arena;
    private final int me;
    private final int[] worldRanks;
    private final MemorySegment[] windows;
    private final MemorySegment[] controls;
    private final MemorySegment ownControl;
    private final Direct access;
    /** Whether the members may spin: no more of them than cores (else a spinner takes the core its peer needs). */
    private final boolean spinning;
    /** Fences this member has entered; fence {@code k} is over once {@code k} times every member has arrived. */
    private long fences;
    private long fenceTarget;
    private final BooleanSupplier fenceOver = () -> fenceReached(fenceTarget);

    private SharedWindow(Communicator comm, SharedBuffers buffers, Arena arena, MemorySegment[] windows,
                         MemorySegment[] controls) {
        this.device = comm.device();
        this.shared = device.sharedMemory();
        this.buffers = buffers;
        this.arena = arena;
        this.me = comm.rank();
        this.worldRanks = new int[comm.size()];
        for (int r = 0; r < worldRanks.length; r++) {
            worldRanks[r] = comm.toWorld(r);
        }
        this.windows = windows;
        this.controls = controls;
        this.ownControl = controls[me];
        this.access = new Direct(device.rank());
        this.spinning = worldRanks.length <= Runtime.getRuntime().availableProcessors();
    }

    /**
     * What this member brings to a window's creation: its control block and where it and the window's memory lie,
     * or nothing when the window cannot be in shared memory here (no shared memory to a member, or memory that
     * is not from {@link SharedBuffers}).
     */
    static final class Offer {
        private final Communicator comm;
        private final MemorySegment memory;
        private final SharedBuffers buffers;
        private final MemorySegment control;
        private final int[] ints = new int[OFFER_INTS];

        Offer(Communicator comm, MemorySegment memory) {
            this.comm = comm;
            this.memory = memory;
            this.buffers = comm.runtime().sharedBuffers();
            if (comm.size() == 1) { // a window of one process: its own memory, whatever it is, and a private block
                this.control = Arena.ofAuto().allocate(CONTROL_BYTES, LINE);
                ints[0] = WITH_MEMORY;
                return;
            }
            SharedMemory shared = comm.device().sharedMemory();
            SharedBuffers.Location window = buffers.locate(memory);
            boolean able = shared != null && reachesAll(shared, comm) && (window != null || memory.byteSize() == 0);
            MemorySegment block = able ? buffers.allocate(CONTROL_BYTES) : null;
            SharedBuffers.Location at = block == null ? null : buffers.locate(block);
            this.control = at == null ? null : block;
            if (block != null && at == null) {
                buffers.release(block);
            }
            if (control != null) {
                ints[0] = window != null ? WITH_MEMORY : EMPTY;
                encode(window, 1);
                encode(at, 8);
            }
        }

        int[] ints() {
            return ints;
        }

        /**
         * The shared window, after the creation's gather ({@code all}: each member's ints from {@code first},
         * {@code stride} apart), or {@code null} when the window keeps messages; collective when every member
         * offered (they then agree that each mapped every other).
         */
        SharedWindow join(int[] all, int first, int stride) {
            int n = comm.size();
            for (int r = 0; r < n; r++) {
                if (all[first + r * stride] == NONE) {
                    withdraw();
                    return null;
                }
            }
            Arena arena = Arena.ofShared();
            MemorySegment[] windows = new MemorySegment[n];
            MemorySegment[] controls = new MemorySegment[n];
            boolean mapped = map(all, first, stride, arena, windows, controls);
            int[] failed = {mapped ? 0 : 1};
            CreationCalls.sumAll(comm, failed);
            if (failed[0] > 0) {
                arena.close();
                withdraw();
                return null;
            }
            return new SharedWindow(comm, buffers, arena, windows, controls);
        }

        private boolean map(int[] all, int first, int stride, Arena arena, MemorySegment[] windows,
                            MemorySegment[] controls) {
            SharedMemory shared = comm.device().sharedMemory();
            try {
                for (int r = 0; r < comm.size(); r++) {
                    int at = first + r * stride;
                    if (r == comm.rank()) {
                        windows[r] = memory;
                        controls[r] = control;
                        continue;
                    }
                    windows[r] = all[at] == EMPTY ? MemorySegment.NULL : map(shared, all, at + 1, arena);
                    controls[r] = map(shared, all, at + 8, arena).asSlice(0, CONTROL_BYTES);
                }
                return true;
            } catch (IOException | RuntimeException e) {
                System.err.println("weft: a window keeps messages: cannot map a member's window memory ("
                        + e.getMessage() + ")");
                return false;
            }
        }

        /** Maps the block a member described at {@code all[at..]}: its file from 0 to the block's end. */
        private static MemorySegment map(SharedMemory shared, int[] all, int at, Arena arena) throws IOException {
            long offset = join(all, at + 5);
            long bytes = join(all, at + 3) - offset; // the rest of the file (address space only: pages stay lazy)
            String name = new SharedBuffers.Location(all[at], all[at + 1], all[at + 2], 0, 0).name();
            return shared.open(name, offset + bytes, arena).asSlice(offset, bytes);
        }

        private void withdraw() {
            if (control != null && comm.size() > 1) {
                buffers.release(control);
            }
        }

        private void encode(SharedBuffers.Location location, int at) {
            if (location != null) {
                ints[at] = location.pid();
                ints[at + 1] = location.heap();
                ints[at + 2] = location.serial();
                ints[at + 3] = (int) location.fileBytes();
                ints[at + 4] = (int) (location.fileBytes() >>> 32);
                ints[at + 5] = (int) location.offset();
                ints[at + 6] = (int) (location.offset() >>> 32);
            }
        }

        private static long join(int[] all, int at) {
            return (all[at] & 0xFFFF_FFFFL) | ((long) all[at + 1] << 32);
        }

        private static boolean reachesAll(SharedMemory shared, Communicator comm) {
            for (int r = 0; r < comm.size(); r++) {
                if (!shared.reaches(comm.toWorld(r))) {
                    return false;
                }
            }
            return true;
        }
    }

    // ------------------------------------------------------------------ operations

    /**
     * A put ({@code op == null}) or an accumulate of {@code count} items of {@code type} from {@code buf} into
     * {@code rank}'s window at byte {@code offset}, as {@code targetCount} items of {@code targetType}: complete
     * at the target when this returns (a release fence at the next synchronisation orders it for the target).
     */
    void write(OriginRequests requests, int kind, AccumulateOp op, Object buf, int count, TypeDescriptor type,
               int rank, long offset, int targetCount, TypeDescriptor targetType) {
        long contiguousAt = contiguousStart(targetType, offset);
        if (op == null && contiguousAt >= 0 && !BufferMapping.needsStaging(buf, type)) {
            long bytes = (long) count * type.byteSize();
            MemorySegment.copy(BufferMapping.forSend(buf, count, type), 0, windows[rank], contiguousAt, bytes);
            return;
        }
        MemorySegment body = requests.build(kind, 0, offset, targetCount, targetType, op == null ? 0 : op.ordinal(),
                buf, count, type, null);
        apply(requests, body, rank, op != null, null);
    }

    /**
     * A get ({@code kind == GET}), get-accumulate or compare-and-swap ({@code compare != null}): {@code into}
     * (from {@code BufferMapping.forReceive}) receives the target's data as it was before the operation.
     */
    void fetch(OriginRequests requests, int kind, MemorySegment into, int rank, long offset, int targetCount,
               TypeDescriptor targetType, int op, Object data, int dataCount, TypeDescriptor dataType,
               Object compare) {
        long contiguousAt = contiguousStart(targetType, offset);
        if (kind == RmaFrame.GET && contiguousAt >= 0) {
            MemorySegment.copy(windows[rank], contiguousAt, into, 0, into.byteSize());
            return;
        }
        MemorySegment body = requests.build(kind, 0, offset, targetCount, targetType, op, data, dataCount, dataType,
                compare);
        apply(requests, body, rank, kind != RmaFrame.GET, into);
    }

    /** {@code rank}'s window memory as this member maps it. */
    MemorySegment memory(int rank) {
        return windows[rank];
    }

    /** Copies {@code bytes} of {@code from} into {@code rank}'s window at {@code offset} (checked by the caller). */
    void put(MemorySegment from, int rank, long offset, long bytes) {
        MemorySegment.copy(from, 0, windows[rank], offset, bytes);
    }

    /** Copies {@code bytes} of {@code rank}'s window at {@code offset} into {@code into} (checked by the caller). */
    void get(MemorySegment into, int rank, long offset, long bytes) {
        MemorySegment.copy(windows[rank], offset, into, 0, bytes);
    }

    /** Applies the request {@code requests} built to {@code rank}'s window, under its accumulate lock if atomic. */
    private void apply(OriginRequests requests, MemorySegment body, int rank, boolean atomic, MemorySegment into) {
        MemorySegment control = controls[rank];
        if (atomic && !tryAccumulateLock(control)) {
            await(control, () -> tryAccumulateLock(control));
        }
        try {
            access.into = into;
            access.access(me, requests.header(), body, windows[rank], null);
        } finally {
            access.into = null;
            if (atomic) {
                INT.setRelease(control, ACCUMULATE, 0);
                wakeSleepers(control);
            }
        }
    }

    /** Where {@code targetType}'s items lie back to back from {@code offset}, or -1 if they leave gaps. */
    private static long contiguousStart(TypeDescriptor targetType, long offset) {
        Typemap runs = targetType.typemap();
        return runs.runs() == 1 && runs.length(0) == targetType.extent() ? offset + runs.offset(0) : -1;
    }

    private static boolean tryAccumulateLock(MemorySegment control) {
        return (int) INT.getVolatile(control, ACCUMULATE) == 0 && INT.compareAndSet(control, ACCUMULATE, 0, 1);
    }

    // ------------------------------------------------------------------ passive-target locks

    /**
     * Takes {@code rank}'s lock ({@link TargetLocks#EXCLUSIVE} or {@link TargetLocks#SHARED}), waiting for it: a
     * ticket from the lock line's requests word ({@link #LOCK}), granted once every request it must follow has
     * completed — every earlier one for an exclusive request, every earlier exclusive one for a shared request.
     */
    void lock(int rank, int type) {
        MemorySegment control = controls[rank];
        boolean exclusive = type == TargetLocks.EXCLUSIVE;
        long ticket = count(control, LOCK, exclusive);
        if (!granted(control, ticket, exclusive)) {
            await(control, () -> granted(control, ticket, exclusive));
        }
    }

    /** Gives {@code rank}'s lock back, this member's writes there done before (the atomic update is a full fence). */
    void unlock(int rank, int type) {
        MemorySegment control = controls[rank];
        count(control, LOCK + COMPLETIONS, type == TargetLocks.EXCLUSIVE);
        wakeSleepers(control);
    }

    /**
     * Counts one shared or exclusive request (or completion) in the word at {@code at}; returns the word before.
     * The halves wrap each on its own (a compare-and-set, not an add whose carry would cross into the exclusive
     * half), so that a half compares equal exactly when as many of its kind are counted in both words.
     */
    private static long count(MemorySegment control, long at, boolean exclusive) {
        long before = (long) LONG.getVolatile(control, at);
        while (true) {
            long after = exclusive ? before + EXCLUSIVE_ONE : (before & EXCLUSIVE_HALF) | ((before + 1) & SHARED_HALF);
            long witness = (long) LONG.compareAndExchange(control, at, before, after);
            if (witness == before) {
                return before;
            }
            before = witness;
        }
    }

    /**
     * Whether the request whose ticket (the requests word before it) is {@code ticket} holds the lock: every
     * request before it completed, for an exclusive one (later ones wait for it, so none has completed); every
     * exclusive one before it, for a shared one (later shared ones may complete first, later exclusive ones not).
     */
    private static boolean granted(MemorySegment control, long ticket, boolean exclusive) {
        long completions = (long) LONG.getVolatile(control, LOCK + COMPLETIONS);
        return exclusive ? completions == ticket : ((completions ^ ticket) & EXCLUSIVE_HALF) == 0;
    }

    /** Waits until {@code taken} holds, counted among the sleepers of {@code control} meanwhile. */
    private void await(MemorySegment control, BooleanSupplier taken) {
        INT.getAndAdd(control, SLEEPERS, 1);
        try {
            device.await(taken);
        } finally {
            INT.getAndAdd(control, SLEEPERS, -1);
        }
    }

    /** Wakes the members (any may wait) when someone sleeps on {@code control}: one load when nobody does. */
    private void wakeSleepers(MemorySegment control) {
        if ((int) INT.getVolatile(control, SLEEPERS) > 0) {
            wakeMembers();
        }
    }

    /** Rings the doorbell of every other member that sleeps in it (a load of its line when it does not). */
    private void wakeMembers() {
        for (int r = 0; r < worldRanks.length; r++) {
            if (r != me) {
                shared.wake(worldRanks[r]);
            }
        }
    }

    // ------------------------------------------------------------------ fence

    /**
     * {@code MPI_Win_fence}'s barrier, on a count in member 0's control block: each member adds 1 (an atomic add,
     * a full fence: its stores into any window are visible before it) and fence {@code k} is over when the count
     * reaches {@code k} times the members. A count that only grows is a sense-reversing barrier whose sense is the
     * generation: nothing to reset, and a member that leaves fence {@code k} and arrives at {@code k + 1} before
     * the others left still leaves them a count at least their target. The last to arrive rings every member's
     * doorbell that sleeps (not only when the sleepers word counts a waiter: so gated, some runs of put_latency
     * -s fence took 78-800 us a fence where the shared segment's barrier, which always rings, took 3-10).
     * A waiter spins for a while when the members have a core each, yields a few times when they do not, then
     * waits through the device (polling it, then parking on the doorbell), so messages keep moving meanwhile.
     */
    void fence() {
        MemorySegment block = controls[0];
        long target = ++fences * worldRanks.length;
        long arrived = (long) LONG.getAndAdd(block, FENCES, 1L) + 1;
        if (arrived == target) {
            wakeMembers();
            return;
        }
        if (spinning) {
            long deadline = System.nanoTime() + FENCE_SPIN_NANOS;
            do {
                for (int i = 0; i < 64; i++) {
                    Thread.onSpinWait();
                    if ((long) LONG.getVolatile(block, FENCES) >= target) {
                        return;
                    }
                }
            } while (System.nanoTime() < deadline);
        } else {
            for (int i = 0; i < FENCE_YIELDS; i++) {
                Thread.yield();
                if ((long) LONG.getVolatile(block, FENCES) >= target) {
                    return;
                }
            }
        }
        fenceTarget = target;
        await(block, fenceOver);
    }

    private boolean fenceReached(long target) {
        return (long) LONG.getVolatile(controls[0], FENCES) >= target;
    }

    /** Unmaps the other members' memory and gives the control block back: the window was freed (collectively). */
    void close() {
        arena.close();
        if (worldRanks.length > 1) { // else a private block
            buffers.release(ownControl);
        }
    }

    /** Applies this member's requests to a mapping; a reply lands in {@link #into}. */
    private static final class Direct extends WindowAccess {
        private MemorySegment into;

        Direct(int rank) {
            super(rank);
        }

        @Override
        MemorySegment replyStaging(long bytes) {
            return into.asSlice(0, bytes);
        }

        @Override
        void reply(MemorySegment data, int origin, int replyTag) {
            // the data is in the origin's buffer already
        }

        @Override
        boolean atomicWords() {
            return true; // DirectCalls' fetch-and-ops and compare-and-swaps change words without the lock
        }
    }
}
