package org.weft.tests.programs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.weft.adi.DeviceReport;
import org.weft.api.Weft;

/**
 * The collectives that run in two levels (barrier, bcast, reduce, allreduce), on a world of sites: each called
 * {@link #CALLS} times at 4 bytes and at 64 KiB, from roots that lead their site and one that does not, every result
 * checked; and the point-to-point messages this rank sent per call through tcp (across sites) and through the other
 * methods (shm, nativempi: inside a site), from the report. Prints {@code TWO-LEVEL rank R NAME tcp T shm S} per
 * collective (messages per call, this rank; "shm" counts every method but tcp) and {@code TWO-LEVEL OK rank R}.
 */
public final class TwoLevelCollectivesCheck {
    private static final int CALLS = 10;
    private static final int LARGE = 64 * 1024 / 4;
    private static final Pattern LINE = Pattern.compile("(?m)^TWO-LEVEL rank (\\d) (\\S+) tcp ([0-9.]+) shm ([0-9.]+)$");
    /** Messages across two sites per call: the leaders' recursive doubling and dissemination one per site. */
    private static final Map<String, Double> ACROSS = Map.of("allreduce", 2.0, "bcast", 1.0, "reduce", 1.0,
            "barrier", 2.0);

    private TwoLevelCollectivesCheck() {
    }

    @FunctionalInterface
    private interface Call {
        void run(int i) throws MPIException;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program without {@code Init} and {@code Finalize} ({@link InOneJob}). */
    public static void run(String[] args) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int n = world.getSize();
        world.barrier(); // the sites' and leaders' communicators and the segments are made here
        for (int count : new int[] {1, LARGE}) {
            String size = count == 1 ? "4B" : "64KiB";
            int[] in = new int[count];
            int[] out = new int[count];
            counted(rank, "allreduce-" + size, i -> {
                Arrays.fill(in, rank + i);
                world.allReduce(in, out, count, MPI.INT, MPI.SUM);
                expect(out, n * (n - 1) / 2 + n * i, "allreduce " + size);
            });
            for (int root : new int[] {0, n - 1}) {
                counted(rank, "bcast-" + size + "-root" + root, i -> {
                    Arrays.fill(out, rank == root ? 7 * i + root : -1);
                    world.bcast(out, count, MPI.INT, root);
                    expect(out, 7 * i + root, "bcast " + size + " from " + root);
                });
                counted(rank, "reduce-" + size + "-root" + root, i -> {
                    Arrays.fill(in, rank * i);
                    Arrays.fill(out, -1);
                    world.reduce(in, out, count, MPI.INT, MPI.SUM, root);
                    if (rank == root) {
                        expect(out, i * n * (n - 1) / 2, "reduce " + size + " to " + root);
                    }
                });
            }
        }
        counted(rank, "barrier", i -> world.barrier());
        System.out.print("TWO-LEVEL OK rank " + rank + System.lineSeparator());
    }

    /**
     * Asserts what a job of this program over two sites of two ranks printed: every rank OK, no message inside a site
     * (each site's part went through its segment or its native MPI), and for 4-byte data the messages across sites
     * per call that crossing once per site gives ({@link #ACROSS}).
     */
    public static void assertOncePerSite(String stdout) {
        for (int r = 0; r < 4; r++) {
            assertTrue(stdout.contains("TWO-LEVEL OK rank " + r), stdout);
        }
        Map<String, double[]> perCall = new TreeMap<>(); // collective -> {tcp, others} per call, summed over ranks
        Matcher m = LINE.matcher(stdout);
        while (m.find()) {
            double[] sum = perCall.computeIfAbsent(m.group(2), k -> new double[2]);
            sum[0] += Double.parseDouble(m.group(3));
            sum[1] += Double.parseDouble(m.group(4));
        }
        assertEquals(11, perCall.size(), stdout);
        perCall.forEach((name, sum) -> {
            assertEquals(0, sum[1], name + ": messages inside a site, per call\n" + stdout);
            if (!name.contains("64KiB")) {
                assertEquals(ACROSS.get(name.replaceAll("-.*", "")), sum[0], name + ": messages across sites, per"
                        + " call\n" + stdout);
            }
        });
    }

    /** Runs {@code call} {@link #CALLS} times between barriers and prints this rank's messages per call. */
    private static void counted(int rank, String name, Call call) throws MPIException {
        MPI.COMM_WORLD.barrier();
        long[] before = sent();
        for (int i = 0; i < CALLS; i++) {
            call.run(i);
        }
        long[] after = sent();
        MPI.COMM_WORLD.barrier();
        // one write per line: printf writes its pieces one by one, and two ranks under one mpirun share a stream
        System.out.print(String.format("TWO-LEVEL rank %d %s tcp %.1f shm %.1f%n", rank, name,
                (after[0] - before[0]) / (double) CALLS, (after[1] - before[1]) / (double) CALLS));
    }

    private static void expect(int[] got, int value, String what) {
        for (int v : got) {
            if (v != value) {
                throw new AssertionError(what + ": " + v + " where " + value + " was due");
            }
        }
    }

    /** Messages (RSRs) this rank has sent so far through tcp and through the other methods. */
    private static long[] sent() throws MPIException {
        long[] sent = new long[2];
        for (DeviceReport.MethodReport method : Weft.report().methods()) {
            if (method.method().equals("tcp")) {
                sent[0] += method.rsrsSent();
            } else { // shm, nativempi, self: inside the site
                sent[1] += method.rsrsSent();
            }
        }
        return sent;
    }
}
