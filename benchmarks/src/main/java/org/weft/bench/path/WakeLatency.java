package org.weft.bench.path;

import org.weft.bench.Results;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;

/**
 * How late a receive that waited a while sees its message: rank 1 sleeps {@code -w} milliseconds, then sends the
 * {@code System.nanoTime()} of its send (one clock on one host); rank 0, blocked in {@code recv} all along (so its
 * idle strategy has backed off to parking), notes the difference when the receive returns. A ping-pong never shows
 * this: its waits end before any park. Written against the {@code mpi} API only. Usage:
 * {@code weft bench wake [-i iterations] [-w millis]}; rank 0 prints the smallest, 10th percentile, median, 90th percentile and
 * largest delay in microseconds. Ranks on one host only (the clocks must agree).
 */
public final class WakeLatency {
    private static final int TAG = 7;
    private static final int WARM_UP = 20;

    private WakeLatency() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int iterations = intOption(args, "-i", 200);
        int sleepMillis = intOption(args, "-w", 5);
        int rank = MPI.COMM_WORLD.getRank();
        long[] sent = new long[1];
        double[] delays = new double[iterations];
        MPI.COMM_WORLD.barrier();
        for (int i = -WARM_UP; i < iterations; i++) { // the first ones compile the path: not recorded
            if (rank == 1) {
                Thread.sleep(sleepMillis);
                sent[0] = System.nanoTime();
                MPI.COMM_WORLD.send(sent, 1, MPI.LONG, 0, TAG);
            } else if (rank == 0) {
                MPI.COMM_WORLD.recv(sent, 1, MPI.LONG, 1, TAG);
                double delay = (System.nanoTime() - sent[0]) / 1e3;
                if (i >= 0) {
                    delays[i] = delay;
                }
            }
        }
        if (rank == 0) {
            Arrays.sort(delays);
            System.out.printf("# Weft wake-up: a receive that waited %d ms, %d times%n", sleepMillis, iterations);
            System.out.printf("# %-12s %12s %12s %12s %12s%n", "min (us)", "p10 (us)", "median (us)", "p90 (us)",
                    "max (us)");
            System.out.printf("%-14.1f %12.1f %12.1f %12.1f %12.1f%n", delays[0], delays[iterations / 10],
                    delays[iterations / 2], delays[iterations * 9 / 10], delays[iterations - 1]);
            Results results = Results.table("wake-up: a receive that waited " + sleepMillis + " ms, " + iterations
                    + " times", "Percentile", "Delay (us)");
            results.row("min", delays[0]);
            results.row("p10", delays[iterations / 10]);
            results.row("median", delays[iterations / 2]);
            results.row("p90", delays[iterations * 9 / 10]);
            results.row("max", delays[iterations - 1]);
        }
        MPI.Finalize();
    }

    private static int intOption(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }
}
