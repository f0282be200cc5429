package org.weft.bench.osu;

import java.nio.FloatBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_reduce_scatter_block}: latency of {@code MPI_Reduce_scatter_block} summing floats, the size being the
 * block each rank receives (each rank sends one such block per rank; sizes from 4 bytes). Usage:
 * {@code ReduceScatterBlock [-m maxBytes] [-i iterations]}.
 */
public final class ReduceScatterBlock {
    private ReduceScatterBlock() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 4, true);
        FloatBuffer in = run.sendBuffer.asFloatBuffer();
        FloatBuffer out = run.recvBuffer.asFloatBuffer();
        run.measureAllSizes("reduce_scatter_block latency",
                bytes -> MPI.COMM_WORLD.reduceScatterBlock(in, out, bytes / 4, MPI.FLOAT, MPI.SUM));
    }
}
