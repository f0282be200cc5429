package org.weft.bench.wan;

import java.nio.FloatBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * Time per call of the world's allreduce (float sum) and bcast (from rank 0) at 4 bytes and 64 KiB, for comparing
 * how collectives across sites go (e.g. {@code coll_two_level=0} against 1 over {@code bin/weft-wan}): per size, a
 * few untimed calls, a barrier, {@code -i} calls back to back and a closing barrier; the slowest rank's mean per
 * call, in milliseconds, one line {@code OP BYTES MS} per row on rank 0. Usage: {@code CollectiveTimes [-i calls]}.
 */
public final class CollectiveTimes {
    private static final int[] SIZES = {4, 64 * 1024};

    private CollectiveTimes() {
    }

    @FunctionalInterface
    private interface Call {
        void run(int floats) throws MPIException;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int calls = args.length == 2 && args[0].equals("-i") ? Integer.parseInt(args[1]) : 30;
        FloatBuffer in = MPI.newFloatBuffer(SIZES[1] / 4);
        FloatBuffer out = MPI.newFloatBuffer(SIZES[1] / 4);
        for (int bytes : SIZES) {
            row("allreduce", bytes, calls, n -> MPI.COMM_WORLD.allReduce(in, out, n, MPI.FLOAT, MPI.SUM));
            row("bcast", bytes, calls, n -> MPI.COMM_WORLD.bcast(out, n, MPI.FLOAT, 0));
        }
        MPI.Finalize();
    }

    private static void row(String name, int bytes, int calls, Call call) throws MPIException {
        int floats = bytes / 4;
        for (int i = 0; i < Math.max(3, calls / 5); i++) {
            call.run(floats);
        }
        MPI.COMM_WORLD.barrier();
        double start = MPI.wtime();
        for (int i = 0; i < calls; i++) {
            call.run(floats);
        }
        MPI.COMM_WORLD.barrier();
        double[] ms = {(MPI.wtime() - start) * 1e3 / calls};
        MPI.COMM_WORLD.reduce(ms, 1, MPI.DOUBLE, MPI.MAX, 0);
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.printf("%s %d %.2f%n", name, bytes, ms[0]);
        }
    }
}
