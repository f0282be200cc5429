package org.weft.bench.osu;

import java.nio.FloatBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_allreduce}: latency of {@code MPI_Allreduce} summing floats (sizes from 4 bytes, as OSU). Usage:
 * {@code Allreduce [-m maxBytes] [-i iterations]}.
 */
public final class Allreduce {
    private Allreduce() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 4, false);
        FloatBuffer in = run.sendBuffer.asFloatBuffer();
        FloatBuffer out = run.recvBuffer.asFloatBuffer();
        run.measureAllSizes("allreduce latency",
                bytes -> MPI.COMM_WORLD.allReduce(in, out, bytes / 4, MPI.FLOAT, MPI.SUM));
    }
}
