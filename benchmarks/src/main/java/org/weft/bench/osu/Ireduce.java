package org.weft.bench.osu;

import java.nio.FloatBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_ireduce} without the overlap: latency of {@code MPI_Ireduce} summing floats to rank 0, started
 * and waited for at once (sizes from 4 bytes). Usage: {@code Ireduce [-m maxBytes] [-i iterations]}.
 */
public final class Ireduce {
    private Ireduce() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 4, false);
        FloatBuffer in = run.sendBuffer.asFloatBuffer();
        FloatBuffer out = run.recvBuffer.asFloatBuffer();
        run.measureAllSizes("ireduce latency",
                bytes -> MPI.COMM_WORLD.iReduce(in, out, bytes / 4, MPI.FLOAT, MPI.SUM, 0).waitFor());
    }
}
