package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_allgather}: latency of {@code MPI_Allgather}, each rank contributing a block of the given size. Usage:
 * {@code Allgather [-m maxBytes] [-i iterations]}.
 */
public final class Allgather {
    private Allgather() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("allgather latency",
                bytes -> MPI.COMM_WORLD.allGather(run.sendBuffer, bytes, MPI.BYTE, run.recvBuffer, bytes, MPI.BYTE));
    }
}
