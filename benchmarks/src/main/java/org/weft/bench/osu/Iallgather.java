package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code MPI_Iallgather} started and waited for at once (no overlap): latency, each rank contributing a block of the
 * given size. Usage: {@code Iallgather [-m maxBytes] [-i iterations]}.
 */
public final class Iallgather {
    private Iallgather() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("iallgather latency",
                bytes -> MPI.COMM_WORLD.iAllGather(run.sendBuffer, bytes, MPI.BYTE,
                        run.recvBuffer, bytes, MPI.BYTE).waitFor());
    }
}
