package org.weft.core.datatype;

import java.util.Arrays;

/**
 * The flattened layout of one item of a datatype: runs of bytes at byte offsets from the item's start, in type
 * order (the order in which the bytes travel), each run holding whole elements of one size. Adjacent runs of the
 * same element size are merged when built, so {@code contiguous(4, INT)} is a single 16-byte run; for copying,
 * {@link #copyBlocks()} merges adjacent runs whatever their element size.
 *
 * <p>Immutable and shared by every descriptor with the same layout (a duplicate, a resized type).
 */
public final class Typemap {
    private final long[] offsets;
    private final long[] lengths;
    private final int[] elementBytes;
    private final long size;
    private final long trueLb;
    private final long trueUb;
    private final Typemap copyBlocks;

    Typemap(long[] offsets, long[] lengths, int[] elementBytes) {
        this.offsets = offsets;
        this.lengths = lengths;
        this.elementBytes = elementBytes;
        long total = 0;
        for (long length : lengths) {
            total += length;
        }
        this.size = total;
        // kept: every send and receive checks its buffer against them
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        for (int i = 0; i < offsets.length; i++) {
            lb = Math.min(lb, offsets[i]);
            ub = Math.max(ub, offsets[i] + lengths[i]);
        }
        this.trueLb = offsets.length == 0 ? 0 : lb;
        this.trueUb = offsets.length == 0 ? 0 : ub;
        this.copyBlocks = mergedForCopy();
    }

    /** Number of runs. */
    public int runs() {
        return offsets.length;
    }

    /** Byte offset of run {@code i} from the start of the item. */
    public long offset(int i) {
        return offsets[i];
    }

    /** Byte length of run {@code i}. */
    public long length(int i) {
        return lengths[i];
    }

    /** Size in bytes of one element of run {@code i}. */
    public int elementBytes(int i) {
        return elementBytes[i];
    }

    /** Bytes of data in one item (the packed size). */
    public long size() {
        return size;
    }

    /** The same bytes with adjacent runs merged whatever their element size: the fewest copies. */
    public Typemap copyBlocks() {
        return copyBlocks;
    }

    /** Lowest byte offset holding data, 0 for an empty map. */
    public long trueLb() {
        return trueLb;
    }

    /** One past the highest byte offset holding data, 0 for an empty map. */
    public long trueUb() {
        return trueUb;
    }

    /** Largest element size, the alignment a C compiler would give such a record (1 for an empty map). */
    public int alignment() {
        int alignment = 1;
        for (int bytes : elementBytes) {
            alignment = Math.max(alignment, bytes);
        }
        return alignment;
    }

    /** Elements in one item. */
    public long elements() {
        return elements(size);
    }

    /**
     * Whole elements in the first {@code packedBytes} bytes of one item's packed form, or -1 if those bytes end
     * inside an element.
     */
    public long elements(long packedBytes) {
        long left = packedBytes;
        long elements = 0;
        for (int i = 0; i < lengths.length && left > 0; i++) {
            long taken = Math.min(left, lengths[i]);
            if (taken % elementBytes[i] != 0) {
                return -1;
            }
            elements += taken / elementBytes[i];
            left -= taken;
        }
        return elements;
    }

    /** Packed bytes of the first {@code elements} elements of one item (at most all of them). */
    public long bytesOfElements(long elements) {
        long left = elements;
        long bytes = 0;
        for (int i = 0; i < lengths.length && left > 0; i++) {
            long taken = Math.min(left, lengths[i] / elementBytes[i]);
            bytes += taken * elementBytes[i];
            left -= taken;
        }
        return bytes;
    }

    private Typemap mergedForCopy() {
        boolean mergeable = false;
        for (int i = 1; i < offsets.length && !mergeable; i++) {
            mergeable = offsets[i - 1] + lengths[i - 1] == offsets[i];
        }
        if (!mergeable) {
            return this;
        }
        TypemapBuilder builder = new TypemapBuilder();
        for (int i = 0; i < offsets.length; i++) {
            builder.add(offsets[i], lengths[i], 1);
        }
        return builder.build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Typemap t && Arrays.equals(offsets, t.offsets) && Arrays.equals(lengths, t.lengths)
                && Arrays.equals(elementBytes, t.elementBytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(offsets) * 31 + Arrays.hashCode(lengths);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < offsets.length; i++) {
            s.append(i == 0 ? "" : ", ").append('(').append(offsets[i]).append(", ").append(lengths[i])
                    .append(" x").append(elementBytes[i]).append(')');
        }
        return s.append('}').toString();
    }
}
