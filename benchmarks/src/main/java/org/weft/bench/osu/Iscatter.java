package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code MPI_Iscatter} started and waited for at once (no overlap): latency from rank 0, each rank receiving a block of
 * the given size. Usage: {@code Iscatter [-m maxBytes] [-i iterations]}.
 */
public final class Iscatter {
    private Iscatter() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 1, true);
        run.measureAllSizes("iscatter latency",
                bytes -> MPI.COMM_WORLD.iScatter(run.sendBuffer, bytes, MPI.BYTE,
                        run.recvBuffer, bytes, MPI.BYTE, 0).waitFor());
    }
}
