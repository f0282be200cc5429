package org.weft.bench.osu;

import java.nio.FloatBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * Latency of {@code MPI_Ireduce_scatter_block} summing floats, started and waited for at once, the size being
 * the block each rank receives (sizes from 4 bytes). Usage: {@code IreduceScatterBlock [-m maxBytes] [-i iterations]}.
 */
public final class IreduceScatterBlock {
    private IreduceScatterBlock() {
    }

    public static void main(String[] args) throws MPIException {
        CollectiveRun run = CollectiveRun.init(args, 4, true);
        FloatBuffer in = run.sendBuffer.asFloatBuffer();
        FloatBuffer out = run.recvBuffer.asFloatBuffer();
        run.measureAllSizes("ireduce_scatter_block latency",
                bytes -> MPI.COMM_WORLD.iReduceScatterBlock(in, out, bytes / 4, MPI.FLOAT, MPI.SUM).waitFor());
    }
}
