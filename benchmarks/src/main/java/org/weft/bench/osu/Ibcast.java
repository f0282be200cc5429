package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_ibcast} without the overlap: latency of {@code MPI_Ibcast} of bytes from rank 0, started and
 * waited for at once. Usage: {@code Ibcast [-m maxBytes] [-i iterations]}.
 */
public final class Ibcast {
    private Ibcast() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, false);
        run.measureAllSizes("ibcast latency",
                bytes -> MPI.COMM_WORLD.iBcast(run.sendBuffer, bytes, MPI.BYTE, 0).waitFor());
    }
}
