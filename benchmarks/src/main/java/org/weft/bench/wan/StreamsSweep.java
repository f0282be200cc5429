package org.weft.bench.wan;

import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.Comm;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import org.weft.bench.Results;

/**
 * MPWide's Figure 2 over a wide-area path: the throughput of one message from rank 0 to rank 1 (two sites) against
 * the number of parallel streams it is striped over, for several message sizes, and the autotuned choice as its own
 * row. Each stream count is a communicator duplicated with the info key {@code weft_streams=N}; the autotuned row
 * uses a communicator without it (the path measures itself at its first striped message, which is not timed). A
 * transfer is timed from the send to a 4-byte answer, so it includes the request to send and one round trip.
 * Usage: {@code StreamsSweep [-m 8m,64m,512m] [-s 1,2,4,8,16,32,64] [-i repetitions (3)]}; prints, per size and
 * count, the median seconds and Mbit/s, then per size the autotuned streams (as the path's report says them).
 */
public final class StreamsSweep {
    private static final int TAG = 21;
    private static final int ACK_TAG = 22;

    private StreamsSweep() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long[] sizes = {8 << 20, 64 << 20, 512 << 20};
        int[] counts = {1, 2, 4, 8, 16, 32, 64};
        int repetitions = 3;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "-m" -> sizes = Arrays.stream(args[i + 1].split(",")).mapToLong(StreamsSweep::size).toArray();
                case "-s" -> counts = Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt).toArray();
                case "-i" -> repetitions = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int rank = MPI.COMM_WORLD.getRank();
        String[] columns = new String[sizes.length];
        for (int k = 0; k < sizes.length; k++) {
            columns[k] = label(sizes[k]) + " (Mbit/s)";
        }
        Results results = rank == 0 ? Results.table("streams: throughput against parallel streams", "Streams",
                columns).expect(counts.length + 1) : null;
        long largest = Arrays.stream(sizes).max().orElseThrow();
        ByteBuffer data = MPI.newByteBuffer((int) Math.min(largest, Integer.MAX_VALUE - 8));
        if (rank == 0) {
            System.out.printf("# one message rank 0 -> rank 1 and a 4-byte answer, median of %d%n", repetitions);
            System.out.printf("%-8s %10s %10s %12s%n", "# streams", "bytes", "seconds", "Mbit/s");
        }
        double[] auto = new double[sizes.length];
        for (int k = 0; k < sizes.length; k++) {
            transfer(MPI.COMM_WORLD, data, (int) sizes[k], rank); // the path measures itself here: not timed
            auto[k] = row("auto", MPI.COMM_WORLD, data, (int) sizes[k], repetitions, rank);
        }
        for (int streams : counts) {
            Info info = new Info();
            info.set("weft_streams", Integer.toString(streams));
            Comm comm = MPI.COMM_WORLD.dup();
            comm.setInfo(info);
            double[] mbit = new double[sizes.length];
            for (int k = 0; k < sizes.length; k++) {
                mbit[k] = row(Integer.toString(streams), comm, data, (int) sizes[k], repetitions, rank);
            }
            if (results != null) {
                results.row(streams, mbit);
            }
            comm.free();
        }
        if (results != null) {
            results.row("auto", auto);
        }
        MPI.Finalize();
    }

    /** Times {@code repetitions} transfers on {@code comm}; prints and returns the median's Mbit/s (rank 0). */
    private static double row(String streams, Comm comm, ByteBuffer data, int bytes, int repetitions, int rank)
            throws MPIException {
        double[] seconds = new double[repetitions];
        for (int r = 0; r < repetitions; r++) {
            seconds[r] = transfer(comm, data, bytes, rank);
        }
        Arrays.sort(seconds);
        double median = seconds[repetitions / 2];
        double mbit = bytes * 8.0 / median / 1e6;
        if (rank == 0) {
            System.out.printf("%-8s %10d %10.3f %12.1f%n", streams, bytes, median, mbit);
        }
        return mbit;
    }

    /** One message rank 0 -> rank 1 and its answer; returns the seconds rank 0 saw. */
    private static double transfer(Comm comm, ByteBuffer data, int bytes, int rank) throws MPIException {
        ByteBuffer ack = MPI.newByteBuffer(4);
        comm.barrier();
        long start = System.nanoTime();
        if (rank == 0) {
            comm.send(data, bytes, MPI.BYTE, 1, TAG);
            comm.recv(ack, 4, MPI.BYTE, 1, ACK_TAG);
        } else if (rank == 1) {
            comm.recv(data, bytes, MPI.BYTE, 0, TAG);
            comm.send(ack, 4, MPI.BYTE, 0, ACK_TAG);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static long size(String text) {
        String t = text.strip().toLowerCase(java.util.Locale.ROOT);
        long unit = t.endsWith("g") ? 1L << 30 : t.endsWith("m") ? 1L << 20 : t.endsWith("k") ? 1L << 10 : 1;
        return Long.parseLong(unit == 1 ? t : t.substring(0, t.length() - 1)) * unit;
    }

    private static String label(long bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : bytes >= 1 << 10 ? (bytes >> 10) + " KiB" : bytes + " B";
    }
}
