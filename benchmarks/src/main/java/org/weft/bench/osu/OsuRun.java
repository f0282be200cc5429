package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;
import org.weft.bench.Results;

/**
 * What the OSU-style benchmarks share: {@code MPI_Init} and the options ({@code -m maxBytes}, {@code -i iterations},
 * {@code --heap}), the two ranks and their buffers, the size loop with its unprinted warm-up pass, and OSU's output
 * ({@code # Size  <figure>} rows). Only {@code mpi} API calls, so the benchmarks also run on Open MPI's bindings.
 */
final class OsuRun {
    /** Times one size. */
    @FunctionalInterface
    interface Measure {
        /** Runs {@code warmup} untimed then {@code iterations} timed repetitions of {@code size} bytes; returns the
         * figure rank 0 prints for this size (meaningful on rank 0 only). */
        double run(int size, int iterations, int warmup) throws MPIException;
    }

    /**
     * How many repetitions a benchmark runs: {@code iterations} (the {@code -i} default) below 64 KiB, that divided
     * by {@code largeDivisor} (at least {@code warmupIterations}) from 64 KiB on, and {@code warmupIterations} per
     * size in the warm-up pass.
     */
    record Schedule(int iterations, int largeDivisor, int warmupIterations) {
    }

    private static final int LARGE = 64 * 1024;

    final int rank;
    final int peer;
    final boolean heap;
    /** {@code byte[]} with {@code --heap}, else a direct {@link java.nio.ByteBuffer}; both of {@link #maxBytes}. */
    final Object sendBuffer;
    final Object recvBuffer;
    private final int maxBytes;
    private final int iterations;
    private final int largeIterations;
    private final int warmupIterations;
    private final int minBytes;
    /** One-sided benchmarks' synchronisation ({@code -s}): flush (the default), lock or fence. */
    final String sync;
    private final Win idleWindow;

    private OsuRun(String[] args, Schedule schedule, int minBytes) throws MPIException {
        int max = 4 << 20;
        int iters = schedule.iterations();
        boolean onHeap = false;
        String sync = "flush";
        boolean window = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-m" -> max = Integer.parseInt(args[++i]);
                case "-i" -> iters = Integer.parseInt(args[++i]);
                case "--heap" -> onHeap = true;
                case "-s" -> sync = args[++i];
                case "--window" -> window = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (options: -m maxBytes, -i iterations, --heap, -s flush|lock|fence, --window)");
            }
        }
        this.rank = MPI.COMM_WORLD.getRank();
        this.peer = 1 - rank;
        this.heap = onHeap;
        this.maxBytes = max;
        this.iterations = iters;
        this.largeIterations = Math.max(iters / schedule.largeDivisor(), schedule.warmupIterations());
        this.warmupIterations = schedule.warmupIterations();
        this.minBytes = minBytes;
        this.sendBuffer = newBuffer(max);
        this.recvBuffer = newBuffer(max);
        this.sync = sync;
        // --window: an idle window exists during the run, to measure what its service thread costs the rest
        this.idleWindow = window ? new Win(MPI.newByteBuffer(8), 8, 1, MPI.INFO_NULL, MPI.COMM_WORLD) : null;
    }

    /** {@code MPI_Init}, then the options in {@code args}; sizes run from {@code minBytes} (0 or 1) up. */
    static OsuRun init(String[] args, Schedule schedule, int minBytes) throws MPIException {
        return new OsuRun(MPI.Init(args), schedule, minBytes);
    }

    /** A buffer of the kind this run uses ({@code --heap} or direct), of at least one byte. */
    Object newBuffer(int bytes) {
        return heap ? new byte[Math.max(bytes, 1)] : MPI.newByteBuffer(Math.max(bytes, 1));
    }

    /**
     * Prints OSU's header, warms up, then times every size and prints its row on rank 0; finalizes MPI. The
     * warm-up is unprinted: many small repetitions, a short pass over all sizes, and small repetitions again, so
     * that the JIT has compiled the paths every size takes before anything is timed (on 2 cores its threads compete
     * with the ranks).
     */
    void measureAllSizes(String title, String column, Measure measure) throws MPIException {
        if (MPI.COMM_WORLD.getSize() != 2) {
            if (rank == 0) {
                System.err.println(title + " needs exactly 2 ranks");
            }
            MPI.Finalize();
            return;
        }
        Results results = null;
        if (rank == 0) {
            System.out.printf("# Weft OSU-style %s test (%s buffers)%n", title, heap ? "byte[]" : "direct");
            System.out.printf("# %-10s %15s%n", "Size", column);
            results = Results.table("OSU-style " + title, "Size (bytes)", column).expect(Results.sizes(minBytes, maxBytes))
                    .note("buffers", heap ? "byte[]" : "direct");
        }
        measure.run(minBytes, 4 * iterations, 0);
        for (int size = minBytes; size <= maxBytes; size = next(size)) {
            measure.run(size, warmupIterations, warmupIterations / 10);
        }
        // The pass over large sizes leaves the small-message path to be recompiled: warm it again, or the first
        // timed row pays for the JIT (seen as a 0 B row 5-10x slower than 1 B).
        measure.run(minBytes, 2 * iterations, 0);
        for (int size = minBytes; size <= maxBytes; size = next(size)) {
            int iters = size < LARGE ? iterations : largeIterations;
            double figure = measure.run(size, iters, iters / 10);
            if (rank == 0) {
                System.out.printf("%-12d %15.2f%n", size, figure);
                results.row(size, figure);
            }
        }
        MPI.Finalize();
    }

    private static int next(int size) {
        return size == 0 ? 1 : size * 2;
    }

    /** One repetition of a benchmark's exchange. */
    @FunctionalInterface
    interface Step {
        void run() throws MPIException;
    }

    /**
     * Runs {@code warmup} untimed then {@code iterations} timed repetitions of {@code step}; returns the seconds
     * the timed ones took. A barrier starts the clock, so both ranks start timing together.
     */
    static double seconds(int iterations, int warmup, Step step) throws MPIException {
        double start = 0;
        for (int i = 0; i < iterations + warmup; i++) {
            if (i == warmup) {
                MPI.COMM_WORLD.barrier();
                start = MPI.wtime();
            }
            step.run();
        }
        return MPI.wtime() - start;
    }

    /** Megabytes (10^6 bytes, as OSU) per second. */
    static double megabytesPerSecond(double bytes, double seconds) {
        return bytes / seconds / 1e6;
    }
}
