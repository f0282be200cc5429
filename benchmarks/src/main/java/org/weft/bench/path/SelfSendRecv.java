package org.weft.bench.path;

import org.weft.bench.Results;
import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import org.weft.bench.SizeAndIterations;

/**
 * The software cost of one blocking {@code send} and the {@code recv} of it, to oneself: every rank loops on its
 * own, so no data crosses cores and what is timed is the path through the library and the method (with
 * {@code --param methods=shm}, the rank's own shm ring; by default the self method). Written against the
 * {@code mpi} API only. Usage: {@code weft bench selfcost [-np 2 --param methods=shm] [-m maxBytes] [-i iterations]};
 * rank 0 prints nanoseconds per send+recv for each size, the median of 5 timed rounds after 2 warm-up sweeps, and
 * the rounds themselves on a comment line.
 */
public final class SelfSendRecv {
    private static final int TAG = 1;
    private static final int ROUNDS = 5;
    private static final int WARM_UP_ROUNDS = 2;

    private SelfSendRecv() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        SizeAndIterations options = SizeAndIterations.parse(args, 1024, 1_000_000);
        int maxBytes = options.maxBytes();
        int iterations = options.iterations();
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer out = MPI.newByteBuffer(Math.max(maxBytes, 1));
        ByteBuffer in = MPI.newByteBuffer(Math.max(maxBytes, 1));
        Results results = null;
        if (rank == 0) {
            System.out.printf("# Weft send+recv to oneself (software path, no cross-core traffic)%n");
            System.out.printf("# %-10s %18s%n", "Size", "ns per send+recv");
            results = Results.table("send+recv to oneself (median of " + ROUNDS + " rounds)", "Size (bytes)",
                    "Send+recv (ns)").expect(Results.sizes(0, maxBytes));
        }
        for (int round = 0; round < WARM_UP_ROUNDS; round++) { // the JIT compiles the path before any timing
            for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
                sendRecvNanos(out, in, size, rank, iterations);
            }
        }
        for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
            double[] nanos = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                nanos[round] = sendRecvNanos(out, in, size, rank, iterations);
            }
            StringBuilder rounds = new StringBuilder();
            for (double n : nanos) {
                rounds.append(String.format(" %.1f", n));
            }
            Arrays.sort(nanos);
            if (rank == 0) {
                System.out.printf("%-12d %18.1f%n", size, nanos[ROUNDS / 2]);
                results.row(size, nanos[ROUNDS / 2]);
                // every round, for tools that pool rounds over runs (benchmarks/scripts/ab-selfcost.sh)
                System.out.printf("# rounds %d:%s%n", size, rounds);
            }
        }
        MPI.Finalize();
    }

    /** Nanoseconds per send+recv of {@code size} bytes to {@code rank} itself, over {@code iterations}. */
    private static double sendRecvNanos(ByteBuffer out, ByteBuffer in, int size, int rank, int iterations)
            throws MPIException {
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            MPI.COMM_WORLD.send(out, size, MPI.BYTE, rank, TAG);
            MPI.COMM_WORLD.recv(in, size, MPI.BYTE, rank, TAG);
        }
        return (System.nanoTime() - start) / (double) iterations;
    }
}
