package org.weft.tests.programs;

import java.nio.FloatBuffer;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;

/**
 * Reductions larger than a shared slot (64 KiB), which go through the segment in chunks, for
 * {@link LargeBlockCollectives}: allreduce, reduce and reduce_scatter_block of integer and floating types of every
 * item size at counts just over a slot, across chunk boundaries and far beyond, in place and not, to the first and
 * last root; float sums in direct buffers; and a non-commutative user operation (affine maps composed) on a
 * two-int type, whose result shows any change of the order {@code c0 op (c1 op …)}. Every item checked against
 * the sequential result, and none of it may send a message (the schedules' rounds did).
 */
final class LargeReductions {
    private static final int SLOT = 64 << 10;
    /** Items of 1, 2, 4 and 8 bytes, integer and floating (the chunks are cut by items; the kernels by type). */
    private static final Datatype[] TYPES = {MPI.BYTE, MPI.SHORT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE};

    private LargeReductions() {
    }

    static void check(Intracomm comm) throws MPIException {
        int n = comm.getSize();
        long before = SharedCollectivesCheck.sent();
        for (Datatype type : n <= 4 ? TYPES : new Datatype[] {MPI.INT, MPI.DOUBLE}) { // 8 ranks on 2 cores: slow
            int item = type.getSize();
            boolean integer = type != MPI.FLOAT && type != MPI.DOUBLE;
            int over = SLOT / item + 1; // just over a slot: a short last chunk, some members' shares empty
            int across = 2 * SLOT / item + n + 1; // across two chunk boundaries, shares of different lengths
            SharedCollectivesCheck.checkAllReduce(comm, type, MPI.SUM, over, 1, false);
            SharedCollectivesCheck.checkAllReduce(comm, type, MPI.MAX, across, 2, true);
            SharedCollectivesCheck.checkReduce(comm, type, integer ? MPI.PROD : MPI.MIN, across, 3, n - 1, false);
            reduceScatterBlock(comm, type, SLOT / item / n + 1, 5, false);
        }
        int far = 300_000 / Integer.BYTES;
        SharedCollectivesCheck.checkAllReduce(comm, MPI.INT, MPI.SUM, far, 6, false);
        SharedCollectivesCheck.checkReduce(comm, MPI.INT, MPI.SUM, far, 7, n - 1, true);
        SharedCollectivesCheck.checkReduce(comm, MPI.INT, MPI.SUM, SLOT / Integer.BYTES + 1, 4, 0, true);
        reduceScatterBlock(comm, MPI.INT, far / n + 3, 8, true);
        for (int count : new int[] {SLOT / Float.BYTES + 1, 3 * SLOT / Float.BYTES + 7}) {
            directFloatSums(comm, count, 0);
            directFloatSums(comm, count, n - 1);
        }
        Datatype pair = Datatype.createContiguous(2, MPI.INT);
        pair.commit();
        Op compose = new Op(new Composition(), false);
        for (int pairs : new int[] {SLOT / 8 + 1, 3 * SLOT / 8 + 5, 100_000}) {
            composed(comm, pair, compose, pairs);
        }
        compose.free();
        pair.free();
        long messages = SharedCollectivesCheck.sent() - before;
        if (messages != 0) {
            throw new AssertionError("rank " + comm.getRank() + " sent " + messages + " messages for reductions over"
                    + " a slot on one host: they did not go through shared memory");
        }
    }

    /** Block {@code b} of rank {@code r}'s input holds {@link Values} of seed {@code seed + b}. */
    private static void reduceScatterBlock(Intracomm comm, Datatype type, int count, int seed, boolean inPlace)
            throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        Values all = new Values(type, n * count);
        Values block = new Values(type, count);
        Object send = all.array();
        for (int b = 0; b < n; b++) {
            System.arraycopy(block.contribution(me, seed + b), 0, send, b * count, count);
        }
        Object result = block.array();
        if (inPlace) {
            comm.reduceScatterBlock(send, count, type, MPI.SUM);
            System.arraycopy(send, 0, result, 0, count);
        } else {
            comm.reduceScatterBlock(send, result, count, type, MPI.SUM);
        }
        block.check(result, block.expected(MPI.SUM, n, seed + me), "large reduceScatterBlock of " + count + " "
                + type + (inPlace ? " in place" : ""));
    }

    private static void directFloatSums(Intracomm comm, int count, int root) throws MPIException {
        int n = comm.getSize();
        FloatBuffer send = MPI.newFloatBuffer(count);
        FloatBuffer recv = MPI.newFloatBuffer(count);
        for (int i = 0; i < count; i++) {
            send.put(i, Values.value(comm.getRank(), i, 7));
        }
        comm.allReduce(send, recv, count, MPI.FLOAT, MPI.SUM);
        checkSums(recv, count, n, "large allReduce of " + count + " floats in direct buffers");
        comm.reduce(send, recv, count, MPI.FLOAT, MPI.SUM, root);
        if (comm.getRank() == root) {
            checkSums(recv, count, n, "large reduce of " + count + " floats in direct buffers to " + root);
        }
    }

    private static void checkSums(FloatBuffer got, int count, int n, String what) {
        for (int i = 0; i < count; i++) {
            float expected = 0;
            for (int r = 0; r < n; r++) {
                expected += Values.value(r, i, 7);
            }
            if (got.get(i) != expected) {
                throw new AssertionError(what + ": item " + i + " is " + got.get(i) + ", expected " + expected);
            }
        }
    }

    /** An allreduce and a reduce to the last rank of {@code pairs} affine maps per rank, composed in rank order. */
    private static void composed(Intracomm comm, Datatype pair, Op compose, int pairs) throws MPIException {
        int n = comm.getSize();
        int[] mine = maps(comm.getRank(), pairs);
        int[] expected = maps(n - 1, pairs);
        for (int r = n - 2; r >= 0; r--) {
            Composition.apply(maps(r, pairs), expected, pairs);
        }
        int[] result = new int[2 * pairs];
        comm.allReduce(mine, result, pairs, pair, compose);
        checkInts(result, expected, "large allReduce of " + pairs + " affine maps");
        java.util.Arrays.fill(result, 0);
        comm.reduce(mine, result, pairs, pair, compose, n - 1);
        if (comm.getRank() == n - 1) {
            checkInts(result, expected, "large reduce of " + pairs + " affine maps");
        }
    }

    /** Rank {@code rank}'s maps {@code x -> a x + b}, as pairs (a, b): all different, none trivial. */
    private static int[] maps(int rank, int pairs) {
        int[] v = new int[2 * pairs];
        for (int i = 0; i < pairs; i++) {
            v[2 * i] = 2 * rank + 3 + (i % 11);
            v[2 * i + 1] = rank - i;
        }
        return v;
    }

    private static void checkInts(int[] got, int[] expected, String what) {
        for (int i = 0; i < got.length; i++) {
            if (got[i] != expected[i]) {
                throw new AssertionError(what + ": int " + i + " is " + got[i] + ", expected " + expected[i]);
            }
        }
    }

    /** Pairs (a, b) as maps {@code x -> a x + b}; {@code in op inout} is {@code in} after {@code inout}. */
    private static final class Composition extends UserFunction {
        @Override
        public void call(Object in, Object inout, int count, Datatype datatype) {
            apply((int[]) in, (int[]) inout, count);
        }

        /** {@code y[p] = x[p] ∘ y[p]} for {@code pairs} pairs. */
        static void apply(int[] x, int[] y, int pairs) {
            for (int p = 0; p < pairs; p++) {
                int i = 2 * p;
                int b = x[i] * y[i + 1] + x[i + 1];
                y[i] = x[i] * y[i];
                y[i + 1] = b;
            }
        }
    }
}
