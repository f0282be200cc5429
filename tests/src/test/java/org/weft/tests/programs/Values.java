package org.weft.tests.programs;

import java.lang.reflect.Array;

import mpi.Datatype;
import mpi.MPI;
import mpi.Op;

/**
 * Arrays of one predefined type for {@link SharedCollectivesCheck}: each rank's contribution, computed from its
 * rank, the item and a seed, and what a reduction of all contributions must give, computed sequentially.
 */
final class Values {
    private final Datatype type;
    private final int count;

    Values(Datatype type, int count) {
        this.type = type;
        this.count = count;
    }

    /** A small positive value (1..13): sums and products of four of them are exact in every type. */
    static int value(int rank, int item, int seed) {
        return ((rank + 1) * 31 + item * 7 + seed * 3) % 13 + 1;
    }

    Object array() {
        return Array.newInstance(component(), count);
    }

    Object contribution(int rank, int seed) {
        Object a = array();
        for (int i = 0; i < count; i++) {
            set(a, i, stored(value(rank, i, seed)));
        }
        return a;
    }

    /** The reduction of the contributions of ranks 0..n-1, item by item, in this type's arithmetic. */
    Object expected(Op op, int n, int seed) {
        Object a = array();
        for (int i = 0; i < count; i++) {
            long acc = stored(value(0, i, seed));
            for (int r = 1; r < n; r++) {
                acc = combine(op, acc, stored(value(r, i, seed)));
            }
            set(a, i, acc);
        }
        return a;
    }

    void check(Object got, Object expected, String what) {
        for (int i = 0; i < count; i++) {
            Object g = Array.get(got, i);
            Object e = Array.get(expected, i);
            if (!g.equals(e)) {
                throw new AssertionError(what + ": item " + i + " is " + g + ", expected " + e);
            }
        }
    }

    /** A value as this type holds it, read back as a long (booleans: even is true, read as 1). */
    private long stored(long v) {
        return type == MPI.BOOLEAN ? (v % 2 == 0 ? 1 : 0) : v;
    }

    private static long combine(Op op, long a, long b) {
        if (op == MPI.SUM) {
            return a + b;
        } else if (op == MPI.PROD) {
            return a * b;
        } else if (op == MPI.MAX) {
            return Math.max(a, b);
        } else if (op == MPI.MIN) {
            return Math.min(a, b);
        } else if (op == MPI.BAND) {
            return a & b;
        } else if (op == MPI.BOR) {
            return a | b;
        } else if (op == MPI.BXOR) {
            return a ^ b;
        } else if (op == MPI.LAND) {
            return a != 0 && b != 0 ? 1 : 0;
        } else if (op == MPI.LOR) {
            return a != 0 || b != 0 ? 1 : 0;
        } else if (op == MPI.LXOR) {
            return (a != 0) != (b != 0) ? 1 : 0;
        }
        throw new IllegalArgumentException("not a predefined reduction: " + op);
    }

    private Class<?> component() {
        if (type == MPI.BYTE) {
            return byte.class;
        } else if (type == MPI.SHORT) {
            return short.class;
        } else if (type == MPI.CHAR) {
            return char.class;
        } else if (type == MPI.INT) {
            return int.class;
        } else if (type == MPI.LONG) {
            return long.class;
        } else if (type == MPI.FLOAT) {
            return float.class;
        } else if (type == MPI.DOUBLE) {
            return double.class;
        } else if (type == MPI.BOOLEAN) {
            return boolean.class;
        }
        throw new IllegalArgumentException("not a predefined type: " + type);
    }

    /** Stores {@code v} wrapped as the type's arithmetic wraps it. */
    private void set(Object a, int i, long v) {
        switch (a) {
            case byte[] x -> x[i] = (byte) v;
            case short[] x -> x[i] = (short) v;
            case char[] x -> x[i] = (char) v;
            case int[] x -> x[i] = (int) v;
            case long[] x -> x[i] = v;
            case float[] x -> x[i] = v;
            case double[] x -> x[i] = v;
            case boolean[] x -> x[i] = v != 0;
            default -> throw new IllegalArgumentException(a.getClass().getName());
        }
    }
}
