package org.weft.tests.programs;

import java.util.Arrays;
import mpi.MPI;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * Every rank calls one blocking collective over and over — {@code barrier}, an {@code allReduce} or a {@code scan}
 * of one double with {@code MPI.SUM}, an {@code allGather}, {@code allToAll}, {@code gather}, {@code scatter} or
 * {@code reduceScatterBlock} of one int, on the same arrays with new data each call (gather and scatter from each
 * rank in turn), checked (the first argument says which), as an iterative solver does — and prints what its thread
 * allocates in steady state
 * ({@link SteadyStateAllocation#print}, its best window), a "message" being one call.
 */
public final class RepeatedCollectives {
    private static final int WARM_UP = 10_000;
    private static final int MEASURED = 10_000;
    /** At most; the windows stop once both ranks had one allocating less than a byte a call. */
    private static final int WINDOWS = 30;

    private RepeatedCollectives() {
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
                    default -> throw new IllegalArgumentException("barrier, allreduce, allgather, alltoall, gather,"
                            + " scatter, scan or reducescatterblock, not " + collective);
                }
            }
        }, WARM_UP, MEASURED, WINDOWS, MEASURED);
        SteadyStateAllocation.print(rank, bytes, MEASURED);
        MPI.Finalize();
    }
}
