package org.weft.bench.path;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.util.Arrays;

import mpi.MPI;
import mpi.MPIException;

/**
 * Where a collective benchmark's slow sizes lose their time: the {@code weft bench} size loop ({@code
 * org.weft.bench.osu.CollectiveRun}: the same warm-up passes, a barrier and a fifth as many untimed calls before each
 * size) with every timed call's duration kept, so a size's mean can be told apart into its typical call and its
 * stalls. Per rank and size it prints the mean, median, 99th percentile and longest call, the calls over {@code
 * 20 µs} and the time they took, where in the size's loop the longest call was, and the main thread's CPU time and
 * voluntary (parks) and involuntary context switches per call. Usage: {@code weftrun -np N ... CallLatencies
 * allreduce|bcast|reduce|gather|scatter|allgather|alltoall|barrier|reduce_scatter_block [maxBytes] [iterations]
 * [warm-up seconds] [no-reduce]}: warm-up passes as {@code weft bench}'s for at least the seconds given (default 1; 0:
 * one pass, OSU's count), each size's followed by the reduction of a {@code double[]} the timed pass makes, unless
 * {@code no-reduce} (the benchmark's warm-up before it made them). Lines are printed at the end (printing compiles
 * code, which takes a core from the ranks).
 */
public final class CallLatencies {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long STALL_NANOS = 20_000;
    /** When each timed call of the last loop started ({@link System#nanoTime}, as -Xlog's {@code tn}). */
    private static long[] starts;

    private final String collective;
    private final ByteBuffer send;
    private final ByteBuffer receive;
    private final FloatBuffer sendFloats;
    private final FloatBuffer receiveFloats;

    private CallLatencies(String collective, int bytes) {
        this.collective = collective;
        this.send = MPI.newByteBuffer(bytes);
        this.receive = MPI.newByteBuffer(bytes);
        this.sendFloats = send.asFloatBuffer();
        this.receiveFloats = receive.asFloatBuffer();
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        String collective = args.length > 0 ? args[0] : "allreduce";
        int max = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
        int ranks = MPI.COMM_WORLD.getSize();
        CallLatencies run = new CallLatencies(collective, Math.max(1, max) * ranks);
        boolean reduction = collective.contains("reduce");
        int min = collective.equals("barrier") ? 0 : reduction ? 4 : 1;
        if (collective.equals("barrier")) {
            max = 0;
        }
        long[] nanos = new long[iterations];
        starts = new long[iterations];
        double warmUpSeconds = args.length > 3 ? Double.parseDouble(args[3]) : 1.0;
        boolean warmReduce = args.length <= 4 || !args[4].equals("no-reduce");
        double start = MPI.wtime();
        int[] again = {1};
        while (again[0] != 0) { // as weft bench's warm-up (CollectiveRun)
            run.loop(min, 5 * iterations, nanos);
            for (int b = min; b <= max; b = b == 0 ? 1 : 2 * b) {
                run.loop(b, iterations, nanos);
                if (warmReduce) {
                    MPI.COMM_WORLD.reduce(new double[1], 1, MPI.DOUBLE, MPI.SUM, 0);
                }
            }
            run.loop(min, 2 * iterations, nanos);
            again[0] = MPI.wtime() - start < warmUpSeconds ? 1 : 0;
            MPI.COMM_WORLD.bcast(again, 1, MPI.INT, 0);
        }
        int rank = MPI.COMM_WORLD.getRank();
        StringBuilder lines = new StringBuilder();
        for (int b = min; b <= max; b = b == 0 ? 1 : 2 * b) {
            long[] counts = run.loop(b, iterations, nanos);
            lines.append(summary(rank, b, nanos, counts[0] / 1000.0 / iterations, counts[1], counts[2]));
            // as weft bench: each size's mean goes to rank 0 by a reduction of a double[]
            double[] sum = {counts[0]};
            MPI.COMM_WORLD.reduce(sum, 1, MPI.DOUBLE, MPI.SUM, 0);
        }
        System.out.print(lines); // printed at the end: printing compiles code, which takes a core from the ranks
        MPI.Finalize();
    }

    /**
     * {@code iterations / 5} untimed calls, a barrier, then {@code iterations} timed ones into {@code nanos}; returns
     * the timed calls' CPU nanoseconds and voluntary and involuntary switches.
     */
    private long[] loop(int bytes, int iterations, long[] nanos) throws Exception {
        for (int i = 0; i < iterations / 5; i++) {
            call(bytes);
        }
        MPI.COMM_WORLD.barrier();
        long[] before = CollectiveSwitches.switches();
        long cpu = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < iterations; i++) {
            long start = System.nanoTime();
            call(bytes);
            nanos[i % nanos.length] = System.nanoTime() - start;
            starts[i % nanos.length] = start;
        }
        cpu = THREADS.getCurrentThreadCpuTime() - cpu;
        long[] after = CollectiveSwitches.switches();
        return new long[] {cpu, after[0] - before[0], after[1] - before[1]};
    }

    private static String summary(int rank, int bytes, long[] nanos, double cpuPerCall, long voluntary,
                                  long involuntary) {
        long sum = 0;
        long stalled = 0;
        int stalls = 0;
        int longest = 0;
        StringBuilder where = new StringBuilder();
        for (int i = 0; i < nanos.length; i++) {
            sum += nanos[i];
            if (nanos[i] > STALL_NANOS) {
                stalls++;
                stalled += nanos[i];
                if (stalls <= 8) {
                    where.append(' ').append(i).append(':').append(nanos[i] / 1000).append("us@").append(starts[i]);
                }
            }
            if (nanos[i] > nanos[longest]) {
                longest = i;
            }
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int n = nanos.length;
        return String.format("CALLS rank %d size %d t0 %d mean %.2f p50 %.2f p99 %.2f max %.1f at %d stalls>20us %d"
                        + " taking %.1f us cpu/call %.2f vol %d invol %d;%s%n", rank, bytes, starts[0], sum / 1000.0 / n,
                sorted[n / 2] / 1000.0, sorted[n * 99 / 100] / 1000.0, nanos[longest] / 1000.0, longest, stalls,
                stalled / 1000.0, cpuPerCall, voluntary, involuntary, where);
    }

    private void call(int bytes) throws MPIException {
        switch (collective) {
            case "allreduce" -> MPI.COMM_WORLD.allReduce(sendFloats, receiveFloats, bytes / 4, MPI.FLOAT, MPI.SUM);
            case "reduce" -> MPI.COMM_WORLD.reduce(sendFloats, receiveFloats, bytes / 4, MPI.FLOAT, MPI.SUM, 0);
            case "reduce_scatter_block" ->
                    MPI.COMM_WORLD.reduceScatterBlock(sendFloats, receiveFloats, bytes / 4, MPI.FLOAT, MPI.SUM);
            case "bcast" -> MPI.COMM_WORLD.bcast(send, bytes, MPI.BYTE, 0);
            case "gather" -> MPI.COMM_WORLD.gather(send, bytes, MPI.BYTE, receive, bytes, MPI.BYTE, 0);
            case "scatter" -> MPI.COMM_WORLD.scatter(send, bytes, MPI.BYTE, receive, bytes, MPI.BYTE, 0);
            case "allgather" -> MPI.COMM_WORLD.allGather(send, bytes, MPI.BYTE, receive, bytes, MPI.BYTE);
            case "alltoall" -> MPI.COMM_WORLD.allToAll(send, bytes, MPI.BYTE, receive, bytes, MPI.BYTE);
            case "barrier" -> MPI.COMM_WORLD.barrier();
            default -> throw new IllegalArgumentException("unknown collective " + collective);
        }
    }
}
