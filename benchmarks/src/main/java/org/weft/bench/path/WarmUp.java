package org.weft.bench.path;

import org.weft.bench.Results;
import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * What a user's first benchmark sees: a blocking ping-pong of {@code -m} bytes (default 1 MiB) from right after
 * {@code MPI_Init} of a fresh job, cut into windows of {@code -w} milliseconds (default 300), {@code -n} of them
 * (default 10); rank 0 prints each window's one-way time and bandwidth (bytes / one-way), then the first window's
 * one-way over the median of the last half. Each window's line ends with the CPU rank 0's JIT compilers used in it
 * ({@link CompilerCpu}): on 2 cores with 2 busy ranks that is what the ranks lost to compiling (docs/performance.md,
 * "Issue 20 item 13, sixth session"). {@code benchmarks/src/main/c/warm-up.c} is Open MPI's C twin
 * ({@code benchmarks/scripts/warm-up.sh} runs both). Rank 0 decides when a window ends and ends the run with a
 * message of another tag. Usage: {@code weft bench warmup [-m bytes] [-w ms] [-n windows]}.
 */
public final class WarmUp {
    private static final int GO = 1;
    private static final int STOP = 2;

    private WarmUp() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long start = System.nanoTime();
        int bytes = option(args, "-m", 1 << 20);
        long windowNanos = option(args, "-w", 300) * 1_000_000L;
        int windows = option(args, "-n", 10);
        ByteBuffer buffer = MPI.newByteBuffer(Math.max(bytes, 1));
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalArgumentException("a ping-pong of 2 ranks, not " + MPI.COMM_WORLD.getSize());
        }
        if (MPI.COMM_WORLD.getRank() == 0) {
            double[] oneWay = new double[windows];
            double[] jit = new double[windows];
            pingPong(buffer, bytes, start, windowNanos, oneWay, jit);
            report(bytes, oneWay, jit, windowNanos);
        } else {
            pongUntilStopped(buffer, bytes);
        }
        MPI.Finalize();
    }

    /**
     * Rank 0: one-way µs of each window in {@code oneWay}, its compilers' CPU ms in {@code jit}; the read of the
     * latter at a window's end is in neither window.
     */
    private static void pingPong(ByteBuffer buffer, int bytes, long start, long windowNanos, double[] oneWay,
                                 double[] jit) throws MPIException {
        double jitBefore = CompilerCpu.millis();
        long windowStart = start;
        long roundTrips = 0;
        for (int window = 0; window < oneWay.length; ) {
            MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 1, GO);
            MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 1, GO);
            roundTrips++;
            long now = System.nanoTime();
            if (now - start >= (window + 1) * windowNanos) {
                oneWay[window] = (now - windowStart) / 1e3 / roundTrips / 2;
                double jitNow = CompilerCpu.millis();
                jit[window++] = jitNow - jitBefore;
                jitBefore = jitNow;
                windowStart = System.nanoTime();
                roundTrips = 0;
            }
        }
        MPI.COMM_WORLD.send(buffer, 0, MPI.BYTE, 1, STOP);
    }

    private static void pongUntilStopped(ByteBuffer buffer, int bytes) throws MPIException {
        while (true) {
            Status status = MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 0, MPI.ANY_TAG);
            if (status.getTag() == STOP) {
                return;
            }
            MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 0, GO);
        }
    }

    private static void report(int bytes, double[] oneWay, double[] jit, long windowNanos) {
        Results results = Results.table("warm-up: a fresh job's " + bytes + " B ping-pong, windows of "
                + windowNanos / 1_000_000 + " ms", "Window", "One-way (us)", "Bandwidth (GB/s)", "JIT CPU (ms)");
        for (int w = 0; w < oneWay.length; w++) {
            System.out.printf("window %d %.1f-%.1f s one-way %.3f us %.2f GB/s jit-cpu %.1f ms%n", w + 1,
                    w * windowNanos / 1e9, (w + 1) * windowNanos / 1e9, oneWay[w], bytes / oneWay[w] / 1e3, jit[w]);
            results.row(w + 1, oneWay[w], bytes / oneWay[w] / 1e3, jit[w]);
        }
        double[] late = java.util.Arrays.copyOfRange(oneWay, oneWay.length / 2, oneWay.length);
        java.util.Arrays.sort(late);
        double steady = late[late.length / 2];
        System.out.printf("warm-up %d B first %.3f us steady %.3f us first/steady %.2f%n", bytes, oneWay[0], steady,
                oneWay[0] / steady);
    }

    private static int option(String[] args, String name, int defaultValue) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return defaultValue;
    }
}
