package org.weft.core.coll.sched;

import java.lang.foreign.MemorySegment;

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

    /** {@code n} blocks of {@code blockBytes} bytes side by side from the start of {@code base}. */
    public static MemorySegment[] equal(MemorySegment base, int n, long blockBytes) {
        MemorySegment[] blocks = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            blocks[i] = base.asSlice(i * blockBytes, blockBytes);
        }
        return blocks;
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
