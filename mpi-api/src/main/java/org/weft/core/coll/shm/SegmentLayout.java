package org.weft.core.coll.shm;

/**
 * Where things lie in a communicator's shared segment: one flag line per rank ({@link #LINE}), then {@link #SETS}
 * sets of one data slot per rank, then {@link #aheadSets} sets of one small <em>ahead slot</em> per rank. Operations
 * use the sets in turn, so a rank may write the slots of later operations while slow readers still copy out of this
 * one's. The small ones, many more, are for rooted collectives of small data, whose writers (a bcast's or scatter's
 * root, a reduce's or gather's leaves) then run hundreds of operations ahead of their readers, as Open MPI's run
 * ahead through its FIFOs; each begins with a header naming the operation that wrote it and its data's length.
 *
 * <p>Slots are up to 64 KiB, fewer bytes when the communicator is large, so a segment's data stays within
 * {@link #MOST_DATA_BYTES} (a file in {@code /dev/shm} takes memory only for the pages written, but a job may
 * hold many communicators).
 */
final class SegmentLayout {
    /**
     * A rank's flag line: its phase, then the length of its data in each slot set ({@code 8 * (1 + SETS)} bytes),
     * then its offer for peer copies ({@link #OFFER}) and the phase it awaits ({@link #AWAITING}), at least 128 bytes
     * so that an adjacent-line prefetch never couples two ranks' flags.
     */
    static final int LINE = 256;
    /**
     * Where in a flag line a rank offers its buffer for peer copies ({@code CommSegment.offer}): the buffer's
     * address, its bytes, the number of the last operation in which a copy of the rank's failed, and where the buffer
     * lies in the rank's shared heap if it does (process and heap ids, chunk serial, offset: {@code SharedBuffers}).
     * One offer per rank, not per set: a rank offers for one operation at a time and leaves it only once the members
     * that read its offer are done with it; the failure's number is never reset, so a member that looks late still
     * sees it.
     */
    static final int OFFER = 8 * (1 + 16); // after the lengths of the SETS slot sets
    /**
     * Offset in a rank's flag line of the phase it waits for from the others while it waits in the device
     * ({@code CommSegment.awaitFlags}; 0 otherwise): a member that publishes a lower phase need not wake it. Past the
     * lengths and the offer, in a cache line of its own.
     */
    static final int AWAITING = 192;
    static final long MOST_SLOT_BYTES = 64 << 10;
    static final long LEAST_SLOT_BYTES = 4 << 10;
    static final long MOST_DATA_BYTES = 16L << 20;
    /**
     * Slot sets, used by operations in turn: a rank may run this many operations ahead of the slowest member (a
     * bcast's root does not wait for its readers until then). Two made every bcast of a loop at 4 ranks on 2 cores
     * wait for a descheduled reader (46 µs a 4 B bcast against 3.8 for the point-to-point schedules); with eight, a
     * rank that got ahead waited again for every operation of the slow ones (see {@code CommSegment.beforeWriting}).
     */
    static final int SETS = 16;

    static {
        assert OFFER == 8 * (1 + SETS) && OFFER + 48 <= AWAITING && AWAITING + 8 <= LINE
                : "a flag line holds the phase, the lengths, the offer, the phase awaited";
    }
    /** Ahead slot sets of a communicator of up to {@link #MOST_AHEAD_SLICES} / {@code AHEAD_SETS} ranks. */
    static final int AHEAD_SETS = 256;
    /** At most this many ahead slots (each a {@code MemorySegment} sliced once), whatever the communicator's size. */
    static final int MOST_AHEAD_SLICES = 4096;
    /** The most data an ahead slot holds: the small sizes, whose cost is the wait, not the copy. */
    static final long MOST_AHEAD_BYTES = 1024;
    /** An ahead slot's header: the number of the operation that wrote it, its data's length; the data follows. */
    static final long AHEAD_HEADER = 16;
    /** Communicators larger than this keep the schedules: every rank reads every flag line. */
    static final int MOST_RANKS = 64;
    private static final long PAGE = 4096;

    final int ranks;
    final long slotBytes;
    final long dataStart;
    final int aheadSets;
    /** Data bytes of an ahead slot (its stride is this plus {@link #AHEAD_HEADER}, a whole number of lines). */
    final long aheadBytes;
    final long aheadStart;
    final long totalBytes;

    SegmentLayout(int ranks) {
        this.ranks = ranks;
        long fair = MOST_DATA_BYTES / ((long) SETS * ranks) / LEAST_SLOT_BYTES * LEAST_SLOT_BYTES;
        this.slotBytes = Math.max(LEAST_SLOT_BYTES, Math.min(MOST_SLOT_BYTES, fair));
        this.dataStart = ((long) ranks * LINE + PAGE - 1) / PAGE * PAGE;
        this.aheadSets = Math.max(SETS, Math.min(AHEAD_SETS, MOST_AHEAD_SLICES / ranks));
        this.aheadBytes = MOST_AHEAD_BYTES + 64 - AHEAD_HEADER;
        this.aheadStart = dataStart + (long) SETS * ranks * slotBytes;
        this.totalBytes = aheadStart + (long) aheadSets * ranks * (aheadBytes + AHEAD_HEADER);
    }

    /** Offset of {@code rank}'s flag (its phase). */
    long flag(int rank) {
        return (long) rank * LINE;
    }

    /** Offset of {@code rank}'s slot in set {@code set} (0 to {@link #SETS} - 1). */
    long slot(int set, int rank) {
        return dataStart + ((long) set * ranks + rank) * slotBytes;
    }

    /** Offset of {@code rank}'s ahead slot (its header) in ahead set {@code set} (0 to {@link #aheadSets} - 1). */
    long aheadSlot(int set, int rank) {
        return aheadStart + ((long) set * ranks + rank) * (aheadBytes + AHEAD_HEADER);
    }
}
