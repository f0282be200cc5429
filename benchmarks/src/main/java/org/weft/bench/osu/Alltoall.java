package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_alltoall}: latency of {@code MPI_Alltoall}, each rank sending a block of the given size to every rank.
 * Usage: {@code Alltoall [-m maxBytes] [-i iterations]}.
 */
public final class Alltoall {
    private Alltoall() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("all-to-all personalized exchange latency",
                bytes -> MPI.COMM_WORLD.allToAll(run.sendBuffer, bytes, MPI.BYTE, run.recvBuffer, bytes, MPI.BYTE));
    }
}
