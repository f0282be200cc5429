package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_gather}: latency of {@code MPI_Gather} to rank 0, each rank sending a block of the given size. Usage:
 * {@code Gather [-m maxBytes] [-i iterations]}.
 */
public final class Gather {
    private Gather() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("gather latency",
                bytes -> MPI.COMM_WORLD.gather(run.sendBuffer, bytes, MPI.BYTE, run.recvBuffer, bytes, MPI.BYTE, 0));
    }
}
