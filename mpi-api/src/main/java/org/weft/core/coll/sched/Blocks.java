package org.weft.core.coll.sched;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.Consumer;

/** Where each member's block lies in a buffer: slices by count and displacement, or equal blocks side by side. */
public final class Blocks {
    private Blocks() {
    }

    /**
     * Block i holds {@code counts[i]} items starting {@code displs[i]} items into {@code base}; an empty block may
     * have any displacement (MPI does not look at it).
     */
    public static MemorySegment[] of(MemorySegment base, int[] counts, int[] displs, int itemBytes) {
        MemorySegment[] blocks = new MemorySegment[counts.length];
        for (int i = 0; i < blocks.length; i++) {
            blocks[i] = counts[i] == 0 ? base.asSlice(0, 0)
                    : base.asSlice((long) displs[i] * itemBytes, (long) counts[i] * itemBytes);
        }
        return blocks;
    }

    /** Whether two non-empty blocks among {@code blocks}, slices of one buffer, share a byte. */
    public static boolean overlap(MemorySegment[] blocks) {
        long[] starts = new long[blocks.length];
        long[] ends = new long[blocks.length];
        int n = 0;
        for (MemorySegment block : blocks) {
            if (block.byteSize() > 0) {
                starts[n] = block.address();
                ends[n++] = block.address() + block.byteSize();
            }
        }
        // every byte lies in as many blocks as start at or before it minus those that end there or before, so
        // the blocks are disjoint exactly when the (i + 1)-th start (sorted) is at or after the i-th end (sorted)
        Arrays.sort(starts, 0, n);
        Arrays.sort(ends, 0, n);
        for (int i = 1; i < n; i++) {
            if (starts[i] < ends[i - 1]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Appends to {@code s} an algorithm that fills {@code blocks}, some of which share bytes, such that they end up
     * written in rank order (the last rank's block wins where they overlap, as in Open MPI's linear gatherv): the
     * {@code algorithm} fills private copies side by side instead (the same messages as over the blocks, so ranks
     * whose displacements differ still agree), which are then copied into place in rank order. The copies start
     * as the blocks are, so past short data a block keeps what it held.
     */
    public static void writtenInRankOrder(Schedule s, MemorySegment[] blocks, Consumer<MemorySegment[]> algorithm) {
        MemorySegment[] apart = sideBySide(blocks);
        s.local(() -> copy(blocks, apart));
        algorithm.accept(apart);
        s.endRound().local(() -> copy(apart, blocks)).endRound();
    }

    private static void copy(MemorySegment[] from, MemorySegment[] to) {
        for (int i = 0; i < from.length; i++) {
            MemorySegment.copy(from[i], 0, to[i], 0, from[i].byteSize());
        }
    }

    /** {@code n} blocks of {@code blockBytes} bytes side by side from the start of {@code base}. */
    public static MemorySegment[] equal(MemorySegment base, int n, long blockBytes) {
        MemorySegment[] blocks = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            blocks[i] = base.asSlice(i * blockBytes, blockBytes);
        }
        return blocks;
    }

    /** Private blocks as long as {@code blocks}, side by side in one new buffer. */
    private static MemorySegment[] sideBySide(MemorySegment[] blocks) {
        long total = 0;
        for (MemorySegment block : blocks) {
            total += block.byteSize();
        }
        MemorySegment base = scratch(total);
        MemorySegment[] copies = new MemorySegment[blocks.length];
        long at = 0;
        for (int i = 0; i < blocks.length; i++) {
            copies[i] = base.asSlice(at, blocks[i].byteSize());
            at += blocks[i].byteSize();
        }
        return copies;
    }

    /** A private buffer of {@code bytes} bytes for partial results and staging. */
    public static MemorySegment scratch(long bytes) {
        return MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
    }

    /** A private copy of {@code data}, made now. */
    public static MemorySegment copyOf(MemorySegment data) {
        return scratch(data.byteSize()).copyFrom(data);
    }
}
