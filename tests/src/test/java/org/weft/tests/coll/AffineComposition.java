package org.weft.tests.coll;

import mpi.Datatype;
import mpi.UserFunction;

/**
 * A user operation that is associative but not commutative: each pair of ints (a, b) is the map
 * x ↦ a·x + b, and {@code in op inout} is the composition {@code in ∘ inout}. A reduction that combines out of
 * rank order gives a different result, so the test sees it. Int arithmetic wraps, which keeps it associative.
 */
final class AffineComposition extends UserFunction {
    @Override
    public void call(Object in, Object inout, int count, Datatype datatype) {
        int[] x = (int[]) in;
        int[] y = (int[]) inout;
        for (int i = 0; i + 1 < count; i += 2) {
            compose(x, y, i);
        }
    }

    /** {@code y[i..i+1] = x[i..i+1] ∘ y[i..i+1]}. */
    static void compose(int[] x, int[] y, int i) {
        int a = x[i] * y[i];
        int b = x[i] * y[i + 1] + x[i + 1];
        y[i] = a;
        y[i + 1] = b;
    }

    /** Rank {@code rank}'s maps: {@code count / 2} pairs, all different, none trivial. */
    static int[] contribution(int rank, int count) {
        int[] v = new int[count];
        for (int i = 0; i + 1 < count; i += 2) {
            v[i] = 2 * rank + 3 + i;
            v[i + 1] = rank - i;
        }
        return v;
    }

    /** {@code v[0] ∘ v[1] ∘ ... ∘ v[size-1]}: the result MPI requires. */
    static int[] expected(int size, int count) {
        int[] acc = contribution(size - 1, count);
        for (int r = size - 2; r >= 0; r--) {
            int[] v = contribution(r, count);
            for (int i = 0; i + 1 < count; i += 2) {
                compose(v, acc, i);
            }
        }
        return acc;
    }
}
