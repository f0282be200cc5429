package org.weft.bench.path;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * The software cost of one-sided calls on a window in shared memory, each rank on its own: rank {@code r} puts to
 * and gets from its own window memory ({@code MPI_COMM_SELF}'s window, over {@code MPI.newByteBuffer}), so no data
 * crosses cores and what is timed is the path through the library. Rows: 8-byte put + flush, get + flush,
 * lock + put + unlock, fence alone (a barrier of one), in nanoseconds per row's calls: the median and the least of
 * 15 timed rounds after 3 warm-up rounds (on a loaded machine the least is the call's cost, the median adds the
 * preemptions), and the bytes this thread allocated per row (all rounds). Written against the {@code mpi} API only.
 * Its C twin is {@code benchmarks/src/main/c/window-calls.c}. Usage: {@code weft bench windowcalls [-i iterations]}.
 */
public final class WindowCalls {
    private static final int ROUNDS = 15;
    private static final int WARM_UP_ROUNDS = 3;
    private static final int BYTES = 8;
    private static final String[] ROWS = {"put+flush", "get+flush", "lock+put+unlock", "fence"};

    private WindowCalls() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int iterations = args.length == 2 && args[0].equals("-i") ? Integer.parseInt(args[1]) : 200_000;
        ByteBuffer local = MPI.newByteBuffer(BYTES);
        Win win = new Win(MPI.newByteBuffer(64), 64, 1, MPI.INFO_NULL, MPI.COMM_SELF);
        boolean print = MPI.COMM_WORLD.getRank() == 0;
        if (print) {
            System.out.printf("# Weft one-sided calls on a window of one process (software path)%n");
            System.out.printf("# %-16s %12s %12s %12s%n", "Row", "median ns", "least ns", "B per row");
        }
        for (int row = 0; row < ROWS.length; row++) {
            double[] nanos = new double[ROUNDS];
            long allocated = allocatedBytes();
            for (int round = -WARM_UP_ROUNDS; round < ROUNDS; round++) {
                double n = nanos(win, local, row, iterations);
                if (round >= 0) {
                    nanos[round] = n;
                }
            }
            double bytesPerRow = (double) (allocatedBytes() - allocated) / (ROUNDS + WARM_UP_ROUNDS) / iterations;
            Arrays.sort(nanos);
            if (print) {
                System.out.printf("%-18s %12.1f %12.1f %12.2f%n", ROWS[row], nanos[ROUNDS / 2], nanos[0],
                        bytesPerRow);
            }
        }
        win.free();
        MPI.Finalize();
    }

    /** Bytes this thread allocated so far (HotSpot's count). */
    private static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return threads.getCurrentThreadAllocatedBytes();
    }

    private static double nanos(Win win, ByteBuffer local, int row, int iterations) throws MPIException {
        boolean flush = row < 2;
        if (flush) {
            win.lock(MPI.LOCK_SHARED, 0, 0);
        } else if (row == 3) {
            win.fence(0);
        }
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            switch (row) {
                case 0 -> {
                    win.put(local, BYTES, MPI.BYTE, 0, 0, BYTES, MPI.BYTE);
                    win.flush(0);
                }
                case 1 -> {
                    win.get(local, BYTES, MPI.BYTE, 0, 0, BYTES, MPI.BYTE);
                    win.flush(0);
                }
                case 2 -> {
                    win.lock(MPI.LOCK_SHARED, 0, 0);
                    win.put(local, BYTES, MPI.BYTE, 0, 0, BYTES, MPI.BYTE);
                    win.unlock(0);
                }
                default -> win.fence(0);
            }
        }
        long elapsed = System.nanoTime() - start;
        if (flush) {
            win.unlock(0);
        } else if (row == 3) {
            win.fence(MPI.MODE_NOSUCCEED);
        }
        return (double) elapsed / iterations;
    }
}
