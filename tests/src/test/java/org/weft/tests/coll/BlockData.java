package org.weft.tests.coll;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;

/** Data and buffers of the block-collective tests: values that name their sender, and marks of untouched items. */
final class BlockData {
    /** What an item no block was to reach holds before and after. */
    static final int UNTOUCHED = -777;

    private BlockData() {
    }

    /** {@code count} items that name {@code seed}: {@code seed * 1000 + k + 1}. */
    static int[] data(int seed, int count) {
        return IntStream.range(0, count).map(k -> seed * 1000 + k + 1).toArray();
    }

    /** {@code length} items {@link #UNTOUCHED}. */
    static int[] filled(int length) {
        int[] a = new int[length];
        Arrays.fill(a, UNTOUCHED);
        return a;
    }

    static int[] repeated(int value, int n) {
        int[] a = new int[n];
        Arrays.fill(a, value);
        return a;
    }

    /** All of a direct buffer, whatever its position. */
    static int[] contents(IntBuffer buf) {
        int[] a = new int[buf.capacity()];
        buf.get(0, a);
        return a;
    }
}
