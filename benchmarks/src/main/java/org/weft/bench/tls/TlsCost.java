package org.weft.bench.tls;

import java.nio.ByteBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.weft.bench.Results;

/**
 * One-way latency (blocking ping-pong) and bandwidth (windows of 16 nonblocking sends, then an acknowledgement)
 * from rank 0 to two peers in the same run: rank 1, of rank 0's site, and the last rank, of another site. Under the
 * default {@code tcp_tls=cross-site} with {@code methods=self,tcp}, the first is a plaintext tcp connection and the
 * second a TLS one, so each size has its plaintext reference beside it; the peers take turns, size by size, for
 * {@code -r} rounds, and the medians are printed. {@code weft bench tls} places the ranks on one host as sites
 * a = ranks 0-1 and b = rank 2; over an emulated wide area, run it with the sites on its hosts and compare a run
 * with {@code --param tcp_tls=none}.
 *
 * <p>Options: {@code -m MAX_BYTES} (default 1 MiB; sizes 0, 64, 1 KiB, 16 KiB, 64 KiB, 1 MiB up to it),
 * {@code -i ITERATIONS} (round trips of the small sizes, default 2000; fewer for large ones), {@code -r ROUNDS}
 * (default 5), {@code -w WARM_UP_ROUNDS} (rounds run first and not counted, default 1: the TLS path is far more code
 * for the JIT than the socket's, and a fresh job's first sizes measured its compilation, +130 us at 0 B),
 * {@code -p PRIMING_ROUND_TRIPS} (0-byte round trips with each peer before everything else, not counted, default
 * {@value #PRIMING_ROUND_TRIPS}, at most {@value #PRIMING_SECONDS} s a peer so that a wide-area path is not primed
 * for minutes; 0 measures a fresh job). The targets are steady one-way times, and a fresh job's
 * TLS ping-pong reaches its own only after thousands of messages (the JIT compiles the JDK's engine and cipher as
 * they are used): with one warm-up round of {@code -i 1000} the rounds measured that compilation, +17.7 us at 0 B on
 * the idle machine where the steady difference is ~+5 (docs/performance.md, "Issue 22, sixth session").
 */
public final class TlsCost {
    private static final int CONTROL = 7;
    private static final int DATA = 8;
    private static final int WINDOW = 16;
    private static final int DONE = 0;
    private static final int PING_PONG = 1;
    private static final int STREAM = 2;
    private static final int PRIMING_ROUND_TRIPS = 20_000;
    private static final int PRIMING_SECONDS = 3;
    /** Round trips between two looks at the priming's time (one CONTROL each). */
    private static final int PRIMING_BATCH = 100;
    private static final int[] SIZES = {0, 64, 1024, 16 * 1024, 64 * 1024, 1 << 20};

    private TlsCost() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int maxBytes = 1 << 20;
        int iterations = 2000;
        int rounds = 5;
        int warmUps = 1;
        int priming = PRIMING_ROUND_TRIPS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-m" -> maxBytes = Integer.parseInt(args[++i]);
                case "-i" -> iterations = Integer.parseInt(args[++i]);
                case "-r" -> rounds = Integer.parseInt(args[++i]);
                case "-w" -> warmUps = Integer.parseInt(args[++i]);
                case "-p" -> priming = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (options: -m maxBytes, -i iterations, -r rounds, -w warmUpRounds, -p primingRoundTrips)");
            }
        }
        int size = MPI.COMM_WORLD.getSize();
        if (size < 3) {
            throw new IllegalArgumentException("rank 0, a peer of its site (rank 1) and one of another site (the"
                    + " last rank): at least 3 ranks, not " + size);
        }
        int largest = maxBytes;
        int[] sizes = Arrays.stream(SIZES).filter(s -> s <= largest).toArray();
        ByteBuffer buffer = MPI.newByteBuffer(Math.max(maxBytes, 1));
        int rank = MPI.COMM_WORLD.getRank();
        if (rank == 0) {
            int[] peers = {1, size - 1};
            for (int peer : peers) {
                prime(buffer, peer, priming);
            }
            lead(buffer, sizes, iterations, rounds, warmUps, priming, peers);
        } else {
            follow(buffer);
        }
        MPI.Finalize();
    }

    private static void lead(ByteBuffer buffer, int[] sizes, int iterations, int rounds, int warmUps, int priming,
                             int[] peers) throws MPIException {
        double[][][] oneWay = new double[peers.length][sizes.length][rounds];
        double[][][] bandwidth = new double[peers.length][sizes.length][rounds];
        for (int round = -warmUps; round < rounds; round++) {
            for (int s = 0; s < sizes.length; s++) {
                int n = Math.max(10, (int) (iterations * Math.min(1.0, 1024.0 / Math.max(sizes[s], 1024))));
                for (int p = 0; p < peers.length; p++) { // the peers take turns: same load for both
                    double latency = pingPong(buffer, peers[p], sizes[s], n);
                    double rate = stream(buffer, peers[p], sizes[s], Math.max(2, n / WINDOW));
                    if (round >= 0) {
                        oneWay[p][s][round] = latency;
                        bandwidth[p][s][round] = rate;
                    }
                }
            }
        }
        for (int peer : peers) {
            MPI.COMM_WORLD.send(new int[] {DONE, 0, 0}, 3, MPI.INT, peer, CONTROL);
        }
        for (int rank = 2; rank < peers[1]; rank++) {
            MPI.COMM_WORLD.send(new int[] {DONE, 0, 0}, 3, MPI.INT, rank, CONTROL);
        }
        report(sizes, rounds, warmUps, priming, oneWay, bandwidth);
    }

    private static void report(int[] sizes, int rounds, int warmUps, int priming, double[][][] oneWay,
                               double[][][] bandwidth) {
        String policy = System.getenv().getOrDefault("WEFT_TCP_TLS", "cross-site");
        System.out.printf("# TLS against plaintext: rank 0 to rank 1 (its site) and to the last rank (another site),"
                + " tcp_tls=%s, medians of %d rounds after %d not counted and %d 0 B round trips with each%n", policy,
                rounds, warmUps, priming);
        System.out.printf("%-10s %14s %14s %10s %14s %14s%n", "# Size", "same (us)", "across (us)", "+us",
                "same (MB/s)", "across (MB/s)");
        Results results = Results.table("TLS against plaintext (tcp_tls=" + policy + ")", "Size (bytes)",
                "Same-site one-way (us)", "Cross-site one-way (us)", "Same-site bandwidth (MB/s)",
                "Cross-site bandwidth (MB/s)").note("rounds", rounds).note("warm-up rounds", warmUps)
                .note("priming round trips", priming).expect(sizes.length);
        for (int s = 0; s < sizes.length; s++) {
            double same = median(oneWay[0][s]);
            double across = median(oneWay[1][s]);
            double sameBw = median(bandwidth[0][s]);
            double acrossBw = median(bandwidth[1][s]);
            System.out.printf("%-10d %14.2f %14.2f %10.2f %14.1f %14.1f%n", sizes[s], same, across, across - same,
                    sameBw, acrossBw);
            results.row(sizes[s], same, across, sameBw, acrossBw);
        }
    }

    /** Up to {@code roundTrips} 0-byte round trips with {@code peer}, for at most {@value #PRIMING_SECONDS} s. */
    private static void prime(ByteBuffer buffer, int peer, int roundTrips) throws MPIException {
        long deadline = System.nanoTime() + PRIMING_SECONDS * 1_000_000_000L;
        for (int done = 0; done < roundTrips && System.nanoTime() - deadline < 0; done += PRIMING_BATCH) {
            pingPong(buffer, peer, 0, Math.min(PRIMING_BATCH, roundTrips - done));
        }
    }

    /** {@code n} round trips of {@code bytes} with {@code peer}; returns the one-way time in microseconds. */
    private static double pingPong(ByteBuffer buffer, int peer, int bytes, int n) throws MPIException {
        MPI.COMM_WORLD.send(new int[] {PING_PONG, bytes, n}, 3, MPI.INT, peer, CONTROL);
        MPI.COMM_WORLD.recv(buffer, 0, MPI.BYTE, peer, DATA); // the peer is ready
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, peer, DATA);
            MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, peer, DATA);
        }
        return (System.nanoTime() - start) / 1e3 / n / 2;
    }

    /** {@code loops} windows of {@link #WINDOW} sends of {@code bytes} to {@code peer}; returns MB/s. */
    private static double stream(ByteBuffer buffer, int peer, int bytes, int loops) throws MPIException {
        MPI.COMM_WORLD.send(new int[] {STREAM, bytes, loops}, 3, MPI.INT, peer, CONTROL);
        MPI.COMM_WORLD.recv(buffer, 0, MPI.BYTE, peer, DATA);
        Request[] window = new Request[WINDOW];
        long start = System.nanoTime();
        for (int loop = 0; loop < loops; loop++) {
            for (int w = 0; w < WINDOW; w++) {
                window[w] = MPI.COMM_WORLD.iSend(buffer, bytes, MPI.BYTE, peer, DATA);
            }
            Request.waitAll(window);
            MPI.COMM_WORLD.recv(buffer, 0, MPI.BYTE, peer, DATA);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return (double) bytes * WINDOW * loops / seconds / 1e6;
    }

    /** Rank 1 and the last rank answer rank 0's commands until it says it is done; the others just wait. */
    private static void follow(ByteBuffer buffer) throws MPIException {
        ByteBuffer receiveBuffer = MPI.newByteBuffer(buffer.capacity());
        Request[] window = new Request[WINDOW];
        int[] command = new int[3];
        while (true) {
            MPI.COMM_WORLD.recv(command, 3, MPI.INT, 0, CONTROL);
            int bytes = command[1];
            int n = command[2];
            if (command[0] == DONE) {
                return;
            }
            MPI.COMM_WORLD.send(buffer, 0, MPI.BYTE, 0, DATA);
            if (command[0] == PING_PONG) {
                for (int i = 0; i < n; i++) {
                    MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 0, DATA);
                    MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 0, DATA);
                }
            } else {
                for (int loop = 0; loop < n; loop++) {
                    for (int w = 0; w < WINDOW; w++) {
                        window[w] = MPI.COMM_WORLD.iRecv(receiveBuffer, bytes, MPI.BYTE, 0, DATA);
                    }
                    Request.waitAll(window);
                    MPI.COMM_WORLD.send(buffer, 0, MPI.BYTE, 0, DATA);
                }
            }
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
