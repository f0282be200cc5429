package org.weft.bench.path;

import org.weft.bench.Results;
import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import org.weft.bench.SizeAndIterations;

/**
 * A blocking ping-pong held long enough to reach its steady state: 30 windows of {@code -i} round trips (default
 * 100 000) of {@code -m} bytes (default 0), each window's one-way time printed, then the median of the last 20
 * (the first 10 take the JIT's compilations and the heap's first touch). {@code Latency} sweeps sizes in short
 * runs; this is the long run the same-size comparison with Open MPI's C needs
 * ({@code benchmarks/src/main/c/steady-latency.c} prints the same line; {@code benchmarks/scripts/steady-ratio.sh}
 * interleaves them). Written against the {@code mpi} API only. Usage: {@code weft bench steady [-m bytes] [-i
 * iterations]}; rank 0 prints {@code steady BYTES B one-way MEDIAN us (windows W1 W2 ...)}.
 */
public final class SteadyLatency {
    private static final int WINDOWS = 30;
    private static final int WARM_UP_WINDOWS = 10;
    private static final int TAG = 1;

    private SteadyLatency() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        SizeAndIterations options = SizeAndIterations.parse(args, 0, 100_000);
        int bytes = options.maxBytes();
        int iterations = options.iterations();
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalArgumentException("a ping-pong of 2 ranks, not " + MPI.COMM_WORLD.getSize());
        }
        ByteBuffer buffer = MPI.newByteBuffer(Math.max(bytes, 1));
        double[] oneWay = new double[WINDOWS];
        for (int window = 0; window < WINDOWS; window++) {
            long start = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                if (rank == 0) {
                    MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 1, TAG);
                    MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 1, TAG);
                } else {
                    MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 0, TAG);
                    MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 0, TAG);
                }
            }
            oneWay[window] = (System.nanoTime() - start) / 1e3 / iterations / 2;
        }
        if (rank == 0) {
            double[] steady = Arrays.copyOfRange(oneWay, WARM_UP_WINDOWS, WINDOWS);
            Arrays.sort(steady);
            double median = (steady[steady.length / 2 - 1] + steady[steady.length / 2]) / 2;
            StringBuilder windows = new StringBuilder();
            for (double w : oneWay) {
                windows.append(String.format(" %.3f", w));
            }
            System.out.printf("steady %d B one-way %.3f us (windows%s)%n", bytes, median, windows);
            Results results = Results.table("steady " + bytes + " B ping-pong, window by window", "Window",
                    "One-way (us)").note("steady median (us)", median);
            for (int window = 0; window < WINDOWS; window++) {
                results.row(window + 1, oneWay[window]);
            }
        }
        MPI.Finalize();
    }
}
