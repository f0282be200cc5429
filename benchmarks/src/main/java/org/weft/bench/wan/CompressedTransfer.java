package org.weft.bench.wan;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import mpi.MPI;
import mpi.MPIException;
import org.weft.bench.Results;

/**
 * One large message from rank 0 to rank 1, answered by a 4-byte acknowledgement, timed: first a field that LZ4
 * compresses well (a smooth field stored at coarse resolution: plateaus of 64 equal doubles), then random bytes that
 * it cannot compress. Run it with {@code --param tcp_compress=off}, {@code lz4} and {@code auto} (the default across
 * sites) on a slow path to see what compression gains and costs, with {@code --path a:b min=1g} so that the message
 * goes on the pair's connection (a striped message's chunks are not compressed). Usage: {@code CompressedTransfer [-m bytes (64 MiB)] [-i repetitions (3)]}; prints
 * per kind the median seconds and MB/s.
 */
public final class CompressedTransfer {
    private static final int TAG = 11;
    private static final int ACK_TAG = 12;

    private CompressedTransfer() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int bytes = 64 << 20;
        int repetitions = 3;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "-m" -> bytes = Integer.parseInt(args[i + 1]);
                case "-i" -> repetitions = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer data = MPI.newByteBuffer(bytes);
        Results results = rank == 0 ? Results.table("compressed transfer", "Data", "Time (s)", "Throughput (MB/s)")
                .expect(2).note("bytes", bytes) : null;
        if (rank == 0) {
            System.out.printf("# one message of %d bytes from rank 0 to rank 1, median of %d%n", bytes, repetitions);
            System.out.printf("%-14s %12s %14s%n", "# data", "seconds", "MB/s");
        }
        for (String kind : new String[] {"compressible", "random"}) {
            fill(data, kind);
            double seconds = median(transfer(data, bytes, repetitions, rank));
            if (rank == 0) {
                double megabytes = bytes / seconds / 1e6;
                System.out.printf("%-14s %12.3f %14.2f%n", kind, seconds, megabytes);
                results.row(kind, seconds, megabytes);
            }
        }
        MPI.Finalize();
    }

    /** The times of {@code repetitions} transfers (rank 0's; rank 1 receives and answers). */
    private static double[] transfer(ByteBuffer data, int bytes, int repetitions, int rank) throws MPIException {
        ByteBuffer ack = MPI.newByteBuffer(4);
        double[] seconds = new double[repetitions];
        for (int r = 0; r < repetitions; r++) {
            MPI.COMM_WORLD.barrier();
            long start = System.nanoTime();
            if (rank == 0) {
                MPI.COMM_WORLD.send(data, bytes, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.recv(ack, 4, MPI.BYTE, 1, ACK_TAG);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(data, bytes, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(ack, 4, MPI.BYTE, 0, ACK_TAG);
            }
            seconds[r] = (System.nanoTime() - start) / 1e9;
        }
        return seconds;
    }

    private static void fill(ByteBuffer data, String kind) {
        if (kind.equals("random")) {
            byte[] random = new byte[data.capacity()];
            new SplittableRandom(1).nextBytes(random);
            data.put(0, random);
            return;
        }
        ByteBuffer doubles = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int count = data.capacity() / Double.BYTES;
        for (int i = 0; i < count; i++) {
            double x = (i / 64) * 64 * 1e-5; // the field sampled once per 64 points
            doubles.putDouble(i * Double.BYTES, Math.sin(x) * Math.exp(-x / 50));
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
