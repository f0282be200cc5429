package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code MPI_Ialltoall} started and waited for at once (no overlap): latency, each rank sending a block of the given
 * size to every rank. Usage: {@code Ialltoall [-m maxBytes] [-i iterations]}.
 */
public final class Ialltoall {
    private Ialltoall() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("ialltoall latency",
                bytes -> MPI.COMM_WORLD.iAllToAll(run.sendBuffer, bytes, MPI.BYTE,
                        run.recvBuffer, bytes, MPI.BYTE).waitFor());
    }
}
