package org.weft.bench.osu;

import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;
import org.weft.bench.Results;

/**
 * What the OSU-style collective benchmarks share ({@code osu_bcast}, {@code osu_allreduce}, {@code osu_alltoall},
 * {@code osu_gather}, {@code osu_scatter}, {@code osu_allgather}, {@code osu_reduce}, {@code osu_barrier},
 * {@code osu_reduce_scatter_block}):
 * {@code MPI_Init}, the options ({@code -m maxBytes}, {@code -i iterations}, {@code -w} least warm-up seconds), direct
 * buffers sized for every rank, the size loop with unprinted warm-up passes, and OSU's output: per size the average
 * over ranks of each rank's mean time per call ({@code # Size  Avg Latency(us)}). Only {@code mpi} API calls, so they also run on Open MPI's bindings.
 */
final class CollectiveRun {
    /** One call of the collective on {@code size} bytes (per rank, or per pair of ranks for all-to-all). */
    @FunctionalInterface
    interface Call {
        void run(int size) throws MPIException;
    }

    private static final int LARGE = 64 * 1024;
    /** {@code -w}'s default: the least time the warm-up passes take, in seconds. */
    private static final double WARM_UP_SECONDS = 1.0;

    final int rank;
    final int size;
    final ByteBuffer sendBuffer;
    final ByteBuffer recvBuffer;
    private final int minBytes;
    private final int maxBytes;
    private final int iterations;
    private final double warmUpSeconds;

    private CollectiveRun(String[] args, int minBytes, int buffersPerRank, boolean sized) throws MPIException {
        int max = 1 << 20;
        int iters = 1000;
        double warmUp = WARM_UP_SECONDS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-m" -> max = Integer.parseInt(args[++i]);
                case "-i" -> iters = Integer.parseInt(args[++i]);
                case "-w" -> warmUp = Double.parseDouble(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (options: -m maxBytes, -i iterations, -w warm-up seconds)");
            }
        }
        this.warmUpSeconds = warmUp;
        this.rank = MPI.COMM_WORLD.getRank();
        this.size = MPI.COMM_WORLD.getSize();
        this.minBytes = minBytes;
        this.maxBytes = sized ? max : 0;
        this.iterations = iters;
        int bytes = Math.max(1, max * (buffersPerRank == 1 ? 1 : size));
        this.sendBuffer = MPI.newByteBuffer(bytes);
        this.recvBuffer = MPI.newByteBuffer(bytes);
    }

    /**
     * {@code MPI_Init}, then the options; sizes run from {@code minBytes} up by doubling. {@code perPeerBuffers}: the
     * buffers hold one block per rank (all-to-all), else one block.
     */
    static CollectiveRun init(String[] args, int minBytes, boolean perPeerBuffers) throws MPIException {
        return new CollectiveRun(MPI.Init(args), minBytes, perPeerBuffers ? 2 : 1, true);
    }

    /**
     * {@code MPI_Init}, then the options, for a collective that moves no data (barrier): one row, size 0; {@code -m}
     * is accepted and ignored, so that every collective takes the same command line.
     */
    static CollectiveRun initWithoutData(String[] args) throws MPIException {
        return new CollectiveRun(MPI.Init(args), 0, 1, false);
    }

    /** Prints OSU's header, warms up, times every size and prints its row on rank 0; finalizes MPI. */
    void measureAllSizes(String title, Call call) throws MPIException {
        Results results = null;
        if (rank == 0) {
            System.out.printf("# Weft OSU-style %s test, %d ranks%n", title, size);
            System.out.printf("# %-10s %15s%n", "Size", "Avg Latency(us)");
            results = Results.table("OSU-style " + title, "Size (bytes)", "Avg Latency (us)")
                    .expect(Results.sizes(minBytes, maxBytes)).note("ranks", size);
        }
        // Unprinted warm-up passes, each what the timed pass does (every size, then its mean reduced to rank 0), for
        // at least warmUpSeconds: the JIT compiles every size's path before anything is timed. A count of calls alone
        // (OSU's) took ~20 ms on the idle machine, far less than the JIT's compiling, which then ran in the timed
        // sizes (each ~1 ms long at 1000 calls) and took a core from a rank; and the timed pass's first reduction of
        // a double[] deoptimised the float paths the warm-up had compiled. collectives.c warms up alike.
        double start = MPI.wtime();
        int[] again = {1};
        while (again[0] != 0) {
            time(call, minBytes, 5 * iterations);
            measureSizes(call, null);
            time(call, minBytes, 2 * iterations); // the small sizes again after the large ones
            again[0] = MPI.wtime() - start < warmUpSeconds ? 1 : 0;
            MPI.COMM_WORLD.bcast(again, 1, MPI.INT, 0); // rank 0's clock decides, for all
        }
        measureSizes(call, results);
        MPI.Finalize();
    }

    /**
     * Every size timed and its mean (the average over ranks) reduced to rank 0, which prints it into {@code results}
     * (if not {@code null}: a warm-up pass).
     */
    private void measureSizes(Call call, Results results) throws MPIException {
        for (int bytes = minBytes; bytes <= maxBytes; bytes = next(bytes)) {
            int iters = bytes < LARGE ? iterations : Math.max(10, iterations / 10);
            double[] sum = {time(call, bytes, iters)};
            MPI.COMM_WORLD.reduce(sum, 1, MPI.DOUBLE, MPI.SUM, 0);
            if (rank == 0 && results != null) {
                System.out.printf("%-12d %15.2f%n", bytes, sum[0] / size);
                results.row(bytes, sum[0] / size);
            }
        }
    }

    /** The size after {@code bytes}: the next power of two (1 after 0). */
    private static int next(int bytes) {
        return bytes == 0 ? 1 : bytes * 2;
    }

    /**
     * This rank's mean microseconds per call over {@code iterations} calls, after a barrier and, as OSU's
     * {@code skip}, a fifth as many untimed calls of the same size (osu_allreduce skips 200 of 1000): a size's first
     * calls run code the JIT has not compiled for it yet, and on two cores its compiling takes a core from a rank.
     */
    private static double time(Call call, int bytes, int iterations) throws MPIException {
        return OsuRun.seconds(iterations, iterations / 5, () -> call.run(bytes)) / iterations * 1e6;
    }
}
