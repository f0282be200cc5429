package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_ibarrier} without the overlap: latency of {@code MPI_Ibarrier} started and waited for at once,
 * one row of size 0. Usage: {@code Ibarrier [-m maxBytes] [-i iterations]}.
 */
public final class Ibarrier {
    private Ibarrier() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.initWithoutData(args);
        run.measureAllSizes("ibarrier latency", bytes -> MPI.COMM_WORLD.iBarrier().waitFor());
    }
}
