package org.weft.tests.programs;

import java.nio.DoubleBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * Every rank calls one blocking collective over and over — {@code barrier}, an {@code allReduce} or a {@code scan}
 * of one double with {@code MPI.SUM}, an {@code allGather}, {@code allToAll}, {@code gather}, {@code scatter} or
 * {@code reduceScatterBlock} of one int (or, {@code largereductions}, an allreduce, a reduce and a
 * reduce_scatter_block of doubles over a shared slot; {@code largeblocks}, a bcast, a gather and a scatter of direct
 * buffers of doubles over a slot, copied between the ranks' buffers), on the same arrays with new data each call
 * (gather and scatter from each rank in turn), checked (the first argument says which), as an iterative solver does — and prints what
 * its thread allocates in steady state
 * ({@link SteadyStateAllocation#print}, its best window), a "message" being one call.
 */
public final class RepeatedCollectives {
    private static final int WARM_UP = 10_000;
    private static final int MEASURED = 10_000;
    /** At most; the windows stop once both ranks had one allocating less than a byte a call. */
    private static final int WINDOWS = 30;

    /** Doubles of a reduction over a shared slot (64 KiB): three chunks through the segment. */
    private static final int LARGE = 20_000;

    private RepeatedCollectives() {
    }

    /**
     * An allreduce, a reduce (roots in turn) and a reduce_scatter_block of {@link #LARGE} doubles: over a slot, so
     * they go through the segment in chunks.
     */
    private static void largeReductions(int rank, int size, int i, double[] in, double[] out) throws MPIException {
        in[0] = rank + i;
        in[in.length - 1] = rank - i;
        MPI.COMM_WORLD.allReduce(in, out, in.length, MPI.DOUBLE, MPI.SUM);
        double sum = size * (size - 1) / 2.0;
        if (out[0] != sum + (double) size * i || out[out.length - 1] != sum - (double) size * i) {
            throw new AssertionError("a large allReduce gave " + out[0] + ", " + out[out.length - 1] + " in call " + i);
        }
        MPI.COMM_WORLD.reduce(in, out, in.length, MPI.DOUBLE, MPI.MAX, i % size);
        if (rank == i % size && out[0] != size - 1 + i) {
            throw new AssertionError("a large reduce gave " + out[0] + " in call " + i);
        }
        MPI.COMM_WORLD.reduceScatterBlock(in, out, in.length / size, MPI.DOUBLE, MPI.SUM);
        if (rank == 0 && out[0] != sum + (double) size * i) {
            throw new AssertionError("a large reduceScatterBlock gave " + out[0] + " in call " + i);
        }
    }

    /**
     * A bcast, a gather and a scatter of {@link #LARGE} doubles (over a slot: copied straight between the ranks'
     * direct buffers), roots in turn.
     */
    private static void largeBlocks(int rank, int size, int i, DoubleBuffer block, DoubleBuffer all)
            throws MPIException {
        int root = i % size;
        int last = LARGE - 1;
        if (rank == root) {
            block.put(0, i).put(last, -i);
        }
        MPI.COMM_WORLD.bcast(block, LARGE, MPI.DOUBLE, root);
        if (block.get(0) != i || block.get(last) != -i) {
            throw new AssertionError("a large bcast gave " + block.get(0) + ", " + block.get(last) + " in call " + i);
        }
        block.put(last, rank + i);
        MPI.COMM_WORLD.gather(block, LARGE, MPI.DOUBLE, all, LARGE, MPI.DOUBLE, root);
        if (rank == root && all.get(size * LARGE - 1) != size - 1 + i) {
            throw new AssertionError("a large gather gave " + all.get(size * LARGE - 1) + " in call " + i);
        }
        all.put(rank * LARGE, i + 1); // the root's values count; the others' buffers are not read
        all.put((size - 1) * LARGE, -i);
        MPI.COMM_WORLD.scatter(all, LARGE, MPI.DOUBLE, block, LARGE, MPI.DOUBLE, root);
        if (rank == size - 1 ? block.get(0) != -i : rank == root && block.get(0) != i + 1) {
            throw new AssertionError("a large scatter gave " + block.get(0) + " in call " + i);
        }
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        String collective = args[0];
        int size = MPI.COMM_WORLD.getSize();
        double[] in = new double[1];
        double[] out = new double[1];
        int[] mine = new int[1];
        int[] all = new int[size];
        int[] mineToAll = new int[size];
        double[] large = new double[collective.equals("largereductions") ? LARGE : 0];
        double[] largeOut = new double[large.length];
        boolean blocks = collective.equals("largeblocks");
        DoubleBuffer block = blocks ? MPI.newDoubleBuffer(LARGE) : null;
        DoubleBuffer allBlocks = blocks ? MPI.newDoubleBuffer(size * LARGE) : null;
        int measured = large.length > 0 || blocks ? MEASURED / 10 : MEASURED; // a large call: 100 times a small one
        long bytes = SteadyStateAllocation.leastBytes(rounds -> {
            for (int i = 0; i < rounds; i++) {
                switch (collective) {
                    case "barrier" -> MPI.COMM_WORLD.barrier();
                    case "allreduce" -> {
                        in[0] = rank + i; // new data every call: a kept schedule must move it
                        MPI.COMM_WORLD.allReduce(in, out, 1, MPI.DOUBLE, MPI.SUM);
                        if (out[0] != size * (size - 1) / 2.0 + (double) size * i) {
                            throw new AssertionError("allReduce gave " + out[0] + " in call " + i);
                        }
                    }
                    case "allgather" -> {
                        mine[0] = rank * 1000 + i;
                        MPI.COMM_WORLD.allGather(mine, 1, MPI.INT, all, 1, MPI.INT);
                        if (all[size - 1] != (size - 1) * 1000 + i) {
                            throw new AssertionError("allGather gave " + all[size - 1] + " in call " + i);
                        }
                    }
                    case "alltoall" -> {
                        Arrays.fill(mineToAll, rank * 1000 + i);
                        MPI.COMM_WORLD.allToAll(mineToAll, 1, MPI.INT, all, 1, MPI.INT);
                        if (all[size - 1] != (size - 1) * 1000 + i) {
                            throw new AssertionError("allToAll gave " + all[size - 1] + " in call " + i);
                        }
                    }
                    case "gather" -> {
                        int root = i % size; // a fixed root would let the others run ahead, their messages piling
                        mine[0] = rank * 1000 + i; // up unexpected at the root (buffered: garbage, not the gather's)
                        MPI.COMM_WORLD.gather(mine, 1, MPI.INT, all, 1, MPI.INT, root);
                        if (rank == root && all[size - 1] != (size - 1) * 1000 + i) {
                            throw new AssertionError("gather gave " + all[size - 1] + " in call " + i);
                        }
                    }
                    case "scatter" -> {
                        Arrays.fill(mineToAll, i); // roots in turn, as for gather
                        MPI.COMM_WORLD.scatter(mineToAll, 1, MPI.INT, mine, 1, MPI.INT, i % size);
                        if (mine[0] != i) {
                            throw new AssertionError("scatter gave " + mine[0] + " in call " + i);
                        }
                    }
                    case "scan" -> {
                        in[0] = i;
                        MPI.COMM_WORLD.scan(in, out, 1, MPI.DOUBLE, MPI.SUM);
                        if (out[0] != (rank + 1.0) * i) {
                            throw new AssertionError("scan gave " + out[0] + " in call " + i);
                        }
                    }
                    case "reducescatterblock" -> {
                        Arrays.fill(mineToAll, i);
                        MPI.COMM_WORLD.reduceScatterBlock(mineToAll, mine, 1, MPI.INT, MPI.SUM);
                        if (mine[0] != size * i) {
                            throw new AssertionError("reduceScatterBlock gave " + mine[0] + " in call " + i);
                        }
                    }
                    case "largereductions" -> largeReductions(rank, size, i, large, largeOut);
                    case "largeblocks" -> largeBlocks(rank, size, i, block, allBlocks);
                    default -> throw new IllegalArgumentException("barrier, allreduce, allgather, alltoall, gather,"
                            + " scatter, scan, reducescatterblock, largereductions or largeblocks, not " + collective);
                }
            }
        }, large.length > 0 || blocks ? WARM_UP / 4 : WARM_UP, measured, WINDOWS, measured);
        SteadyStateAllocation.print(rank, bytes, measured);
        MPI.Finalize();
    }
}
