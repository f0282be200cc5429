package org.weft.bench.osu;

import java.nio.FloatBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_iallreduce} without the overlap: latency of {@code MPI_Iallreduce} summing floats, started and
 * waited for at once (sizes from 4 bytes). Usage: {@code Iallreduce [-m maxBytes] [-i iterations]}.
 */
public final class Iallreduce {
    private Iallreduce() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 4, false);
        FloatBuffer in = run.sendBuffer.asFloatBuffer();
        FloatBuffer out = run.recvBuffer.asFloatBuffer();
        run.measureAllSizes("iallreduce latency",
                bytes -> MPI.COMM_WORLD.iAllReduce(in, out, bytes / 4, MPI.FLOAT, MPI.SUM).waitFor());
    }
}
