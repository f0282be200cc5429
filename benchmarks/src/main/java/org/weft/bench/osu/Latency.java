package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_latency}: ping-pong between ranks 0 and 1; one-way latency is half the round trip, averaged over
 * many iterations after a warm-up. Usage: {@code Latency [-m maxBytes] [-i iterations] [--heap]} — {@code --heap}
 * sends from {@code byte[]} instead of a direct buffer.
 */
public final class Latency {
    private Latency() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int maxBytes = 4 << 20;
        int iterations = 10_000;
        boolean heap = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-m" -> maxBytes = Integer.parseInt(args[++i]);
                case "-i" -> iterations = Integer.parseInt(args[++i]);
                case "--heap" -> heap = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() != 2) {
            if (rank == 0) {
                System.err.println("Latency needs exactly 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        Object buffer = heap ? new byte[Math.max(maxBytes, 1)] : MPI.newByteBuffer(Math.max(maxBytes, 1));
        if (rank == 0) {
            System.out.printf("# Weft OSU-style latency test (%s buffers)%n", heap ? "byte[]" : "direct");
            System.out.printf("# %-10s %15s%n", "Size", "Latency (us)");
        }
        // Unprinted warm-up: many small round trips, then a pass over all sizes, so that the JIT has compiled
        // the paths every size takes before anything is timed (on 2 cores its threads compete with the ranks).
        pingPong(buffer, 0, 4 * iterations, 0, rank);
        for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
            pingPong(buffer, size, 100, 10, rank);
        }
        for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
            int iters = size < 65536 ? iterations : Math.max(iterations / 50, 100);
            double oneWay = pingPong(buffer, size, iters, iters / 10, rank);
            if (rank == 0) {
                System.out.printf("%-12d %15.2f%n", size, oneWay * 1e6);
            }
        }
        MPI.Finalize();
    }

    /** Seconds for one one-way message of {@code size} bytes. */
    static double pingPong(Object buffer, int size, int iterations, int warmup, int rank) throws MPIException {
        double start = 0;
        for (int i = 0; i < iterations + warmup; i++) {
            if (i == warmup) {
                MPI.COMM_WORLD.barrier();
                start = MPI.wtime();
            }
            if (rank == 0) {
                MPI.COMM_WORLD.send(buffer, size, MPI.BYTE, 1, 1);
                MPI.COMM_WORLD.recv(buffer, size, MPI.BYTE, 1, 1);
            } else {
                MPI.COMM_WORLD.recv(buffer, size, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.send(buffer, size, MPI.BYTE, 0, 1);
            }
        }
        return (MPI.wtime() - start) / iterations / 2;
    }
}
