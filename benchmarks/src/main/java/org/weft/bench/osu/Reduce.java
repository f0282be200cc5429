package org.weft.bench.osu;

import java.nio.FloatBuffer;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_reduce}: latency of {@code MPI_Reduce} summing floats to rank 0 (sizes from 4 bytes, as OSU). Usage:
 * {@code Reduce [-m maxBytes] [-i iterations]}.
 */
public final class Reduce {
    private Reduce() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 4, false);
        FloatBuffer in = run.sendBuffer.asFloatBuffer();
        FloatBuffer out = run.recvBuffer.asFloatBuffer();
        run.measureAllSizes("reduce latency",
                bytes -> MPI.COMM_WORLD.reduce(in, out, bytes / 4, MPI.FLOAT, MPI.SUM, 0));
    }
}
