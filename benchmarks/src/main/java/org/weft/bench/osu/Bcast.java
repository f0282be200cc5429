package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/** {@code osu_bcast}: latency of {@code MPI_Bcast} from rank 0. Usage: {@code Bcast [-m maxBytes] [-i iterations]}. */
public final class Bcast {
    private Bcast() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, false);
        run.measureAllSizes("broadcast latency", bytes -> MPI.COMM_WORLD.bcast(run.sendBuffer, bytes, MPI.BYTE, 0));
    }
}
