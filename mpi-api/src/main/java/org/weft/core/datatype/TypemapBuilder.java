package org.weft.core.datatype;

import java.util.Arrays;

/**
 * Collects the runs of a {@link Typemap} in type order, merging a run into the previous one when it starts where
 * that one ends and holds elements of the same size. Used once per type constructor.
 */
final class TypemapBuilder {
    private long[] offsets = new long[8];
    private long[] lengths = new long[8];
    private int[] elementBytes = new int[8];
    private int runs;

    /** Appends {@code length} bytes of elements of {@code elementSize} bytes at byte {@code offset}. */
    TypemapBuilder add(long offset, long length, int elementSize) {
        if (length == 0) {
            return this;
        }
        int last = runs - 1;
        if (last >= 0 && offsets[last] + lengths[last] == offset && elementBytes[last] == elementSize) {
            lengths[last] += length;
            return this;
        }
        if (runs == offsets.length) {
            offsets = Arrays.copyOf(offsets, runs * 2);
            lengths = Arrays.copyOf(lengths, runs * 2);
            elementBytes = Arrays.copyOf(elementBytes, runs * 2);
        }
        offsets[runs] = offset;
        lengths[runs] = length;
        elementBytes[runs] = elementSize;
        runs++;
        return this;
    }

    /** Appends every run of {@code map}, shifted by {@code displacement} bytes. */
    TypemapBuilder add(Typemap map, long displacement) {
        for (int i = 0; i < map.runs(); i++) {
            add(map.offset(i) + displacement, map.length(i), map.elementBytes(i));
        }
        return this;
    }

    Typemap build() {
        return new Typemap(Arrays.copyOf(offsets, runs), Arrays.copyOf(lengths, runs),
                Arrays.copyOf(elementBytes, runs));
    }
}
