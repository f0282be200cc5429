package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_barrier}: latency of {@code MPI_Barrier}, printed as one row of size 0 (so that its table reads like the
 * other collectives'). Usage: {@code Barrier [-m ignored] [-i iterations]}.
 */
public final class Barrier {
    private Barrier() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.initWithoutData(args);
        run.measureAllSizes("barrier latency", bytes -> MPI.COMM_WORLD.barrier());
    }
}
