package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_scatter}: latency of {@code MPI_Scatter} from rank 0, each rank receiving a block of the given size.
 * Usage: {@code Scatter [-m maxBytes] [-i iterations]}.
 */
public final class Scatter {
    private Scatter() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("scatter latency",
                bytes -> MPI.COMM_WORLD.scatter(run.sendBuffer, bytes, MPI.BYTE, run.recvBuffer, bytes, MPI.BYTE, 0));
    }
}
