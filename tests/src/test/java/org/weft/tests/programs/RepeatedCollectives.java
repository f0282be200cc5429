package org.weft.tests.programs;

import mpi.MPI;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * Every rank calls one blocking collective over and over — {@code barrier}, or an {@code allReduce} of one double
 * with {@code MPI.SUM} on the same arrays with new data each call, checked (the first argument says which), as an
 * iterative solver does — and prints what its thread allocates in steady state
 * ({@link SteadyStateAllocation#print}, its best window), a "message" being one call.
 */
public final class RepeatedCollectives {
    private static final int WARM_UP = 50_000;
    private static final int MEASURED = 10_000;
    private static final int WINDOWS = 10;

    private RepeatedCollectives() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        boolean barrier = args[0].equals("barrier");
        int size = MPI.COMM_WORLD.getSize();
        double[] in = new double[1];
        double[] out = new double[1];
        long bytes = SteadyStateAllocation.leastBytes(rounds -> {
            for (int i = 0; i < rounds; i++) {
                if (barrier) {
                    MPI.COMM_WORLD.barrier();
                } else {
                    in[0] = rank + i; // new data every call: a kept schedule must move it
                    MPI.COMM_WORLD.allReduce(in, out, 1, MPI.DOUBLE, MPI.SUM);
                    if (out[0] != size * (size - 1) / 2.0 + (double) size * i) {
                        throw new AssertionError("allReduce gave " + out[0] + " in call " + i);
                    }
                }
            }
        }, WARM_UP, MEASURED, WINDOWS);
        SteadyStateAllocation.print(rank, bytes, MEASURED);
        MPI.Finalize();
    }
}
