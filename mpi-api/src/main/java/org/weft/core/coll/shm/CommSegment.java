package org.weft.core.coll.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.SendMode;
import org.weft.adi.SharedMemory;
import org.weft.core.comm.CollectiveTraffic;
import org.weft.core.error.MpiErrors;
import org.weft.core.rma.SharedBuffers;

/**
 * One communicator's shared segment, mapped by this rank, and the flags that order its operations. Every member
 * numbers the operations it runs through the segment 1, 2, 3… alike (they are collective); its flag holds its
 * <em>phase</em>: {@code 2s - 1} once its data for operation {@code s} is in its slot, {@code 2s} once it is done
 * with operation {@code s} (read all it needed). Flags only grow, so "reached" is a comparison.
 *
 * <p>Operation {@code s} uses slot set {@code s % SETS}; before a rank writes into it, every member must be done with
 * operation {@code s - SETS}, which used the same set ({@link #beforeWriting}) — usually long since true. A rooted
 * operation's small data may go instead into ahead set {@code s % aheadSets} ({@link #writeAhead}), free once every
 * member is done with operation {@code s - aheadSets}; the writer names the operation in the ahead slot's header, and
 * readers find where a rank's data for {@code s} lies by that name ({@link #slot}, {@link #length}). Nonblocking
 * operations ({@link SharedSchedules}) take their numbers at the call and run later; a rank still publishes its phases
 * in order: a nonblocking operation begins once the one before it is done ({@link #mayBegin}), a blocking one once
 * all begun before it are ({@link #next}).
 *
 * <p>Waits check the flags, then wait in {@link Device#await} (polling the device, so point-to-point traffic and
 * the communicator's nonblocking collectives move on, and backing off through the device's idle strategy: spin,
 * yield, park) — a rank never burns the core that the rank it waits for needs. A rank that publishes wakes members
 * that sleep in the device's doorbell.
 */
final class CommSegment implements BooleanSupplier {
    /**
     * The length a rank records for data that does not fit a slot and goes by a point-to-point message instead, in
     * the communicator's collective context under the call's tag (a large message between native buffers is then
     * read out of the sender's memory once: the shm method's single copy).
     */
    static final long BY_MESSAGE = -1;
    /**
     * The length a rank records for large data that its peers copy straight out of its buffer, and into theirs, by
     * cross-memory attach ({@link PeerCopies}); the buffer is in its slot's header ({@link #offer}).
     */
    static final long BY_PEER_COPY = -2;
    /** A rank's offer for {@link #BY_PEER_COPY} in its flag line: the buffer's address, its bytes, a failure. */
    private static final long OFFER_ADDRESS = SegmentLayout.OFFER;
    private static final long OFFER_BYTES = SegmentLayout.OFFER + 8;
    private static final long LAST_FAILED = SegmentLayout.OFFER + 16;
    /** Where the offered buffer lies in its rank's shared heap: process id and heap id, chunk serial, offset. */
    private static final long OFFER_HEAP = SegmentLayout.OFFER + 24;
    private static final long OFFER_CHUNK = SegmentLayout.OFFER + 32;
    private static final long OFFER_OFFSET = SegmentLayout.OFFER + 40;
    private static final VarHandle PHASE = ValueLayout.JAVA_LONG.varHandle();
    /** Yields of a wait for flags before the device's wait, when members outnumber cores ({@link #awaitFlags}). */
    private static final int YIELDS_FIRST = 20;

    private final Arena arena;
    private final MemorySegment memory;
    private final SegmentLayout layout;
    private final int me;
    private final int[] worldRanks;
    private final SharedMemory shared;
    private final Device device;
    private final CollectiveTraffic traffic;
    private final int context;
    /** Slots by set and rank, sliced once. */
    private final MemorySegment[][] slots;
    /** The data of the ahead slots by set and rank, sliced once. */
    private final MemorySegment[][] aheadSlots;
    /** Slices of the slots, one block of {@link #blockBytes} at {@link #blockIndex} each ({@link #block}). */
    private final MemorySegment[][] blocks;
    private long blockBytes = -1;
    private int blockIndex = -1;
    /** Operations begun through the segment. */
    private long sequence;
    /** The last nonblocking operation begun ({@link #reserve}), 0 if none. */
    private long lastNonblocking;
    /** The running wait: every member's phase ({@code -1}) or one member's, at least {@link #waitPhase}. */
    private int waitRank;
    private long waitPhase;
    /** The running wait for messages: until every request of {@link #waitRequests} is complete, if not null. */
    private DeviceRequest[] waitRequests;
    /** Yields before the device's wait ({@link #awaitFlags}): none when every member may have a core of its own. */
    private final int yieldsFirst;
    /** Whether small rooted writers use the ahead slots ({@link SharedMemory#runsAhead}), asked once. */
    private final boolean runsAhead;
    /** Requests of the messages a call sends, by rank, reused. */
    private final DeviceRequest[] requests;
    /** The one receive a call waits for at a time. */
    private final DeviceRequest[] receiving = new DeviceRequest[1];
    /** Where {@code MPI.newByteBuffer}'s buffers lie: peers copy into and out of those with loads and stores. */
    private final SharedBuffers heap;
    /** Native memory a peer copy lands in when the buffer is not native, grown as needed ({@link #scratch}). */
    private MemorySegment scratch;

    CommSegment(Arena arena, MemorySegment memory, SegmentLayout layout, int me, int[] worldRanks,
                SharedMemory shared, Device device, CollectiveTraffic traffic, int context, SharedBuffers heap) {
        this.heap = heap;
        this.arena = arena;
        this.memory = memory;
        this.layout = layout;
        this.me = me;
        this.worldRanks = worldRanks;
        this.shared = shared;
        this.device = device;
        this.traffic = traffic;
        this.context = context;
        this.requests = new DeviceRequest[layout.ranks];
        this.yieldsFirst = layout.ranks > Runtime.getRuntime().availableProcessors() ? YIELDS_FIRST : 0;
        this.runsAhead = shared.runsAhead();
        this.slots = new MemorySegment[SegmentLayout.SETS][layout.ranks];
        this.blocks = new MemorySegment[SegmentLayout.SETS][layout.ranks];
        for (int set = 0; set < SegmentLayout.SETS; set++) {
            for (int r = 0; r < layout.ranks; r++) {
                slots[set][r] = memory.asSlice(layout.slot(set, r), layout.slotBytes);
            }
        }
        this.aheadSlots = new MemorySegment[layout.aheadSets][layout.ranks];
        for (int set = 0; set < layout.aheadSets; set++) {
            for (int r = 0; r < layout.ranks; r++) {
                aheadSlots[set][r] = memory.asSlice(layout.aheadSlot(set, r) + SegmentLayout.AHEAD_HEADER,
                        layout.aheadBytes);
            }
        }
    }

    /** The most data of a rooted operation that goes into an ahead slot ({@link #writeAhead}). */
    long aheadBytes() {
        return layout.aheadBytes;
    }

    long slotBytes() {
        return layout.slotBytes;
    }

    int ranks() {
        return layout.ranks;
    }

    /** This rank's number in the communicator. */
    int rank() {
        return me;
    }

    /**
     * The tag of a call whose data may go by messages ({@link #BY_MESSAGE}): the communicator's next collective
     * tag, taken by every member for every such call, so the tags stay in step with the schedules' calls.
     */
    int tag() {
        return traffic.nextTag();
    }

    /**
     * Begins the next operation; returns its number. A member publishes its phases in order, so an operation begins
     * once this rank is done with the nonblocking operations begun before it, which the wait advances
     * ({@link #getAsBoolean}); without any (blocking calls alone) there is nothing to wait for.
     */
    long next() {
        awaitRank(me, 2 * lastNonblocking);
        return ++sequence;
    }

    /** How many operation numbers this rank has taken (blocking and nonblocking). */
    long taken() {
        return sequence;
    }

    /**
     * Takes, without running them, the numbers of the {@code operations} the others ran for a call (more than one:
     * a reduction in chunks) while this rank's call raised an argument error before it took one (a read-only
     * receive buffer at a gather's root): the call chose the segment when {@code taken} numbers had been taken, and
     * none has been since. Every member must number operations alike, or the next ones read slots of other
     * operations. This rank's part in them, where such an error can leave the others running, was only to read; it
     * says at once that it is done with them (its outstanding nonblocking operations done first, as {@link #next}
     * waits): sixteen failed calls in a row at every member, each skipping a number, made the next call wait for the
     * slot set of a skipped operation, which nobody would ever say it was done with.
     */
    void skipIfNoneSince(long taken, long operations) {
        if (sequence == taken) {
            awaitRank(me, 2 * lastNonblocking);
            sequence += operations;
            publish(2 * sequence);
        }
    }

    /**
     * The number of the last nonblocking operation begun (0: none), which a nonblocking operation begun now waits
     * for ({@link #mayBegin}).
     */
    long lastNonblocking() {
        return lastNonblocking;
    }

    /**
     * Takes the next operation's number for a nonblocking operation, which must not wait now: its schedule waits
     * until {@link #mayBegin} before it touches the segment.
     */
    long reserve() {
        lastNonblocking = ++sequence;
        return lastNonblocking;
    }

    /**
     * Whether nonblocking operation {@code s} may write its slot set and publish: this rank is done with the
     * nonblocking operation {@code after} begun before it (phases go up in order; blocking ones ran to their end
     * in their calls) and every member with the operation that used the same slot set.
     */
    boolean mayBegin(long s, long after) {
        if (!reached(me, 2 * after)) {
            traffic.advanceAll(); // a schedule run without advancing the others (e.g. MPI_Comm_dup's) waits for them
            if (!reached(me, 2 * after)) {
                return false;
            }
        }
        return allReached(2 * (s - SegmentLayout.SETS));
    }

    /** Whether every member's phase is at least {@code phase} (a nonblocking operation's condition). */
    boolean allReached(long phase) {
        for (int r = 0; r < layout.ranks; r++) {
            if (!reached(r, phase)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Begins the next operation with this rank's data: waits until its slot set is free ({@link #beforeWriting}),
     * copies {@code bytes} of {@code data} from {@code offset} into this rank's slot; returns the operation's number.
     * Nothing is visible to the others until {@link #publish}.
     */
    long write(MemorySegment data, long offset, long bytes) {
        long s = next();
        beforeWriting(s);
        MemorySegment.copy(data, offset, slots[(int) (s % SegmentLayout.SETS)][me], 0, bytes);
        return s;
    }

    /**
     * As {@link #write}, for a rank whose data others read later while it goes on (a bcast's root, a reduce's or
     * gather's leaves): data that fits goes into an ahead slot, whose set is free when every member is done with the
     * operation {@code aheadSets} before; its length is recorded too. Larger data goes as {@link #write}'s.
     */
    long writeAhead(MemorySegment data, long offset, long bytes) {
        if (!runsAhead || bytes > layout.aheadBytes) {
            return write(data, offset, bytes);
        }
        long s = next();
        beforeWritingAhead(s);
        claimAhead(s, me, bytes);
        MemorySegment.copy(data, offset, aheadSlots[aheadSet(s)][me], 0, bytes);
        return s;
    }

    /**
     * Begins the next operation for a writer of {@code bytes} into every member's slot (a scatter's root): when they
     * fit the ahead slots, waits until the ahead set is free and names the operation in every member's ahead slot
     * (lengths {@code bytes}), so {@link #slot} finds them there; else waits until the set is free. Returns the
     * operation's number.
     */
    long beginForAll(long bytes) {
        long s = next();
        if (!runsAhead || bytes > layout.aheadBytes) {
            beforeWriting(s);
            return s;
        }
        beforeWritingAhead(s);
        for (int r = 0; r < layout.ranks; r++) {
            claimAhead(s, r, bytes);
        }
        return s;
    }

    /** Names operation {@code s}, with data of {@code bytes}, in the header of {@code rank}'s ahead slot. */
    private void claimAhead(long s, int rank, long bytes) {
        long header = layout.aheadSlot(aheadSet(s), rank);
        memory.set(ValueLayout.JAVA_LONG, header, s);
        memory.set(ValueLayout.JAVA_LONG, header + Long.BYTES, bytes);
    }

    /** Whether {@code rank}'s data for operation {@code s} lies in its ahead slot (read once {@code s} is out). */
    private boolean ahead(long s, int rank) {
        return memory.get(ValueLayout.JAVA_LONG, layout.aheadSlot(aheadSet(s), rank)) == s;
    }

    private int aheadSet(long s) {
        return (int) (s % layout.aheadSets);
    }

    /** The slot of {@code rank} that operation {@code s} uses: its ahead slot if it was written as one. */
    MemorySegment slot(long s, int rank) {
        return ahead(s, rank) ? aheadSlots[aheadSet(s)][rank] : slots[(int) (s % SegmentLayout.SETS)][rank];
    }

    /**
     * Block {@code index} of {@code block} bytes in the slot of {@code rank} that operation {@code s} uses. The
     * slices of the last block size asked for are kept, so a repeated call slices nothing.
     */
    MemorySegment block(long s, int rank, int index, long block) {
        if (block != blockBytes || index != blockIndex) {
            for (int set = 0; set < SegmentLayout.SETS; set++) {
                for (int r = 0; r < layout.ranks; r++) {
                    blocks[set][r] = slots[set][r].asSlice(index * block, block);
                }
            }
            blockBytes = block;
            blockIndex = index;
        }
        return blocks[(int) (s % SegmentLayout.SETS)][rank];
    }

    /**
     * Records that this rank's data for operation {@code s} is {@code bytes} long (before {@link #publish}, which
     * makes it visible): a block may be shorter than the receiver's. One place per slot set, as the slots.
     */
    void setLength(long s, long bytes) {
        memory.set(ValueLayout.JAVA_LONG, lengthAt(me, s), bytes);
    }

    /** What {@code rank} recorded with {@link #setLength} for operation {@code s} (read after waiting for it). */
    long length(int rank, long s) {
        return memory.get(ValueLayout.JAVA_LONG, lengthAt(rank, s));
    }

    /** Where {@code rank}'s length for operation {@code s} lies: in its ahead slot's header, or by its flag. */
    private long lengthAt(int rank, long s) {
        return ahead(s, rank) ? layout.aheadSlot(aheadSet(s), rank) + Long.BYTES
                : layout.flag(rank) + Long.BYTES * (1 + s % SegmentLayout.SETS);
    }

    /**
     * Offers this rank's buffer to its peers for the operation it runs ({@link #BY_PEER_COPY}): its address (0 when
     * it is not native: the peers must not write into it) and {@code bytes} (a reader's room, a writer's data), in its
     * flag line ({@link SegmentLayout#OFFER}); before it publishes {@code 2s - 1}.
     */
    void offer(MemorySegment buffer, long bytes) {
        offer(buffer, 0, bytes);
    }

    /** As {@link #offer(MemorySegment, long)}, the buffer from {@code at} on (an in-place allgather's own block). */
    void offer(MemorySegment buffer, long at, long bytes) {
        long line = layout.flag(me);
        memory.set(ValueLayout.JAVA_LONG, line + OFFER_ADDRESS, buffer.isNative() ? buffer.address() + at : 0);
        memory.set(ValueLayout.JAVA_LONG, line + OFFER_BYTES, bytes);
        int chunk = heap == null ? 0 : heap.chunkOf(buffer);
        memory.set(ValueLayout.JAVA_INT, line + OFFER_CHUNK, chunk);
        if (chunk != 0) {
            memory.set(ValueLayout.JAVA_INT, line + OFFER_HEAP, SharedBuffers.processId());
            memory.set(ValueLayout.JAVA_INT, line + OFFER_HEAP + Integer.BYTES, heap.heapId());
            memory.set(ValueLayout.JAVA_LONG, line + OFFER_OFFSET, heap.offsetIn(chunk, buffer) + at);
        }
    }

    /**
     * The chunk of its shared heap that holds the buffer {@code rank} offered, mapped here ({@link
     * SharedBuffers#peerChunk}), or {@code null} if the buffer is not in one or the chunk cannot be mapped: then the
     * copies go through the kernel.
     */
    MemorySegment offeredChunk(int rank) {
        long line = layout.flag(rank);
        int chunk = memory.get(ValueLayout.JAVA_INT, line + OFFER_CHUNK);
        if (chunk == 0 || heap == null) {
            return null;
        }
        return heap.peerChunk(memory.get(ValueLayout.JAVA_INT, line + OFFER_HEAP),
                memory.get(ValueLayout.JAVA_INT, line + OFFER_HEAP + Integer.BYTES), chunk);
    }

    /** Where in its chunk ({@link #offeredChunk}) the buffer {@code rank} offered lies. */
    long offeredOffset(int rank) {
        return memory.get(ValueLayout.JAVA_LONG, layout.flag(rank) + OFFER_OFFSET);
    }

    /** The address {@code rank} offered for the operation it runs (0: none), read after its {@code 2s - 1}. */
    long offeredAddress(int rank) {
        return memory.get(ValueLayout.JAVA_LONG, layout.flag(rank) + OFFER_ADDRESS);
    }

    /** The bytes {@code rank} offered for the operation it runs. */
    long offeredBytes(int rank) {
        return memory.get(ValueLayout.JAVA_LONG, layout.flag(rank) + OFFER_BYTES);
    }

    /** Records that a copy of this rank's for operation {@code s} failed (before it publishes that it is done). */
    void markFailed(long s) {
        memory.set(ValueLayout.JAVA_LONG, layout.flag(me) + LAST_FAILED, s);
    }

    /**
     * Whether {@code rank} recorded a failed copy for operation {@code s} or a later one (read after it published
     * {@code 2s}; a later failure makes an earlier operation's look failed too, which only a failing job sees).
     */
    boolean failed(int rank, long s) {
        return memory.get(ValueLayout.JAVA_LONG, layout.flag(rank) + LAST_FAILED) >= s;
    }

    /** Whether this rank may copy out of and into every other member's memory ({@link SharedMemory#copyFrom}). */
    boolean copiesPeerMemory() {
        for (int r = 0; r < layout.ranks; r++) {
            if (r != me && !shared.copiesPeerMemory(worldRanks[r])) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@code bytes} at {@code address} in member {@code rank}'s memory into {@code into} at {@code at}. */
    boolean copyFrom(int rank, long address, MemorySegment into, long at, long bytes) {
        return shared.copyFrom(worldRanks[rank], address, into, at, bytes);
    }

    /** Copies {@code bytes} of {@code from} at {@code at} to {@code address} in member {@code rank}'s memory. */
    boolean copyTo(int rank, long address, MemorySegment from, long at, long bytes) {
        return shared.copyTo(worldRanks[rank], address, from, at, bytes);
    }

    /** Native memory of at least {@code bytes}, kept for the next call (freed with the segment). */
    MemorySegment scratch(long bytes) {
        if (scratch == null || scratch.byteSize() < bytes) {
            scratch = arena.allocate(Math.max(bytes, scratch == null ? 0 : 2 * scratch.byteSize()), 64);
        }
        return scratch;
    }

    /**
     * Waits until every member is done with the operation whose slots {@code s} reuses. A rank that has to wait
     * (it ran {@link SegmentLayout#SETS} operations ahead of a slower member: a bcast's root, a reduce's leaves)
     * waits until half the sets are free, not just one: the slow members then run several operations before it comes
     * back, instead of waking it for each (a wake-up, and a core taken, per operation when ranks outnumber cores). All
     * operations before {@code s} are done at this rank, so the others can finish them without it.
     */
    void beforeWriting(long s) {
        if (!allReached(2 * (s - SegmentLayout.SETS))) {
            awaitAll(2 * (s - SegmentLayout.SETS / 2));
        }
    }

    /** As {@link #beforeWriting}, for the ahead set of operation {@code s}. */
    private void beforeWritingAhead(long s) {
        if (!allReached(2 * (s - layout.aheadSets))) {
            awaitAll(2 * (s - layout.aheadSets / 2));
        }
    }

    /**
     * Sets this rank's phase (after its writes to the segment) and wakes members that sleep — not those that wait in
     * the segment for a higher phase ({@link #awaitFlags}): every wake-up of a waiter whose condition is still false
     * took a core from the ranks it waits for (2 ranks: a reduce's leaf 16 operations ahead, woken by each of the
     * root's publishes, spun on its core between them). Phases only grow, so a stale look at what a member awaits
     * sees a lower phase and wakes it: no wake-up it needs is skipped.
     */
    void publish(long phase) {
        PHASE.setRelease(memory, layout.flag(me), phase);
        for (int r = 0; r < worldRanks.length; r++) {
            if (r != me && (long) PHASE.getAcquire(memory, awaitingAt(r)) <= phase) {
                shared.wake(worldRanks[r]);
            }
        }
    }

    /** Where {@code rank} says what phase it awaits ({@link SegmentLayout#AWAITING}). */
    private long awaitingAt(int rank) {
        return layout.flag(rank) + SegmentLayout.AWAITING;
    }

    /** Waits until every member's phase is at least {@code phase}. */
    void awaitAll(long phase) {
        if (!allReached(phase)) {
            waitRank = -1;
            waitPhase = phase;
            awaitFlags();
        }
    }

    /** Waits until {@code rank}'s phase is at least {@code phase}. */
    void awaitRank(int rank, long phase) {
        if (!reached(rank, phase)) {
            waitRank = rank;
            waitPhase = phase;
            awaitFlags();
        }
    }

    /**
     * Waits for the running wait's flags. When the members outnumber the cores, the one waited for is likely
     * on this core, not running: the rank first gives the core away ({@link Thread#yield}) between looks at the
     * flags, up to {@link #YIELDS_FIRST} times, before the device's wait (which, with ranks outnumbering cores, yields
     * at once too, polling between yields, then parks).
     */
    private void awaitFlags() {
        for (int i = 0; i < yieldsFirst; i++) {
            Thread.yield();
            if (getAsBoolean()) {
                return;
            }
        }
        // what it awaits from the others; not when it waits for its own phase (its nonblocking operations, which
        // may need any phase of theirs). A release store: a sleep raises the doorbell's flag with a full fence after.
        PHASE.setRelease(memory, awaitingAt(me), waitRank == me ? 0L : waitPhase);
        try {
            device.await(this);
        } finally {
            PHASE.setRelease(memory, awaitingAt(me), 0L); // any other wait may need any publish
        }
    }

    /**
     * Starts sending {@code data} to {@code rank} as a message under {@code tag}; {@link #awaitSends} waits for it.
     * One send per rank at a time.
     */
    void startSend(MemorySegment data, int rank, int tag) {
        requests[rank] = device.isend(data, worldRanks[rank], tag, context, SendMode.STANDARD);
    }

    /** Waits until every send started went (each receiver has its data); raises a send's failure. */
    void awaitSends() {
        awaitRequests(requests);
        for (int r = 0; r < requests.length; r++) {
            DeviceRequest request = requests[r];
            requests[r] = null;
            if (request != null && request.error() != ErrorClass.SUCCESS) {
                throw MpiErrors.error(request.error(), "a collective's message to a member failed: "
                        + request.failure());
            }
        }
    }

    /**
     * Receives the message {@code rank} sent under {@code tag} into {@code into} (a longer one is truncated to it);
     * returns how long it was as {@link BlockExchanges} counts data: longer than {@code into} when truncated.
     */
    long receive(MemorySegment into, int rank, int tag) {
        receiving[0] = device.irecv(into, worldRanks[rank], tag, context);
        awaitRequests(receiving);
        DeviceRequest request = receiving[0];
        receiving[0] = null;
        if (request.error() == ErrorClass.ERR_TRUNCATE) {
            return into.byteSize() + 1;
        }
        if (request.error() != ErrorClass.SUCCESS) {
            throw MpiErrors.error(request.error(), "a collective's message from a member failed: "
                    + request.failure());
        }
        return request.byteCount();
    }

    /** Starts receiving what {@code rank} sent under {@code tag} into {@code into} (a nonblocking operation's). */
    DeviceRequest startReceive(MemorySegment into, int rank, int tag) {
        return device.irecv(into, worldRanks[rank], tag, context);
    }

    /** The world rank of member {@code rank}. */
    int worldRank(int rank) {
        return worldRanks[rank];
    }

    private void awaitRequests(DeviceRequest[] pending) {
        waitRequests = pending;
        try {
            device.await(this);
        } finally {
            waitRequests = null;
        }
    }

    /** The running wait's condition; advances the communicator's nonblocking collectives, which a peer may need. */
    @Override
    public boolean getAsBoolean() {
        traffic.advanceAll();
        DeviceRequest[] pending = waitRequests;
        if (pending != null) {
            for (DeviceRequest request : pending) {
                if (request != null && !request.isComplete()) {
                    return false;
                }
            }
            return true;
        }
        return waitRank < 0 ? allReached(waitPhase) : reached(waitRank, waitPhase);
    }

    boolean reached(int rank, long phase) {
        return (long) PHASE.getAcquire(memory, layout.flag(rank)) >= phase;
    }

    /** Unmaps the segment (the communicator was freed). */
    void close() {
        arena.close();
    }
}
