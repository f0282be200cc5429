package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code MPI_Igather} started and waited for at once (no overlap): latency to rank 0, each rank sending a block of the
 * given size. Usage: {@code Igather [-m maxBytes] [-i iterations]}.
 */
public final class Igather {
    private Igather() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("igather latency",
                bytes -> MPI.COMM_WORLD.iGather(run.sendBuffer, bytes, MPI.BYTE,
                        run.recvBuffer, bytes, MPI.BYTE, 0).waitFor());
    }
}
