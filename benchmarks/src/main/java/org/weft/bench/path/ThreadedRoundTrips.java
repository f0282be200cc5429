package org.weft.bench.path;

import org.weft.bench.Results;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import mpi.MPI;
import mpi.MPIException;

/**
 * Blocking round trips between 2 ranks from several threads at once (MPI_THREAD_MULTIPLE): for each thread count
 * T of {@code -t} (default {@code 1,4}), T threads of each rank share {@code -i} round trips (default 40 000) of
 * {@code -m} bytes (default 0), each thread on its own tag; the line of T threads gives the time of the whole and
 * the time per round trip. The total is the same for every T, so the 1-thread line is the reference of the others in
 * the same run: several threads should take no longer than one (over any method — a collapse here means waiting
 * threads get in each other's way in the progress engine or a module). A warm-up pass of one thread comes first.
 * Written against the {@code mpi} API only. Usage: {@code weft bench threads [-t 1,2,4] [-i roundTrips] [-m
 * bytes]}; rank 0 prints {@code threads T round-trips R each total MS ms US us per round trip} per thread count.
 */
public final class ThreadedRoundTrips {
    private ThreadedRoundTrips() {
    }

    public static void main(String[] args) throws Exception {
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        if (provided != MPI.THREAD_MULTIPLE) {
            throw new IllegalStateException("THREAD_MULTIPLE not provided: " + provided);
        }
        Options options = Options.parse(args);
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalArgumentException("round trips of 2 ranks, not " + MPI.COMM_WORLD.getSize());
        }
        int rank = MPI.COMM_WORLD.getRank();
        Results results = null;
        if (rank == 0) {
            System.out.printf("# Weft threaded round trips: %d round trips of %d B shared by the threads%n",
                    options.roundTrips(), options.bytes());
            results = Results.table("threaded round trips: " + options.roundTrips() + " of " + options.bytes()
                    + " B shared by the threads", "Threads", "Round trip (us)", "Total (ms)")
                    .expect(options.threads().size());
        }
        run(1, Math.min(options.roundTrips(), 10_000), options.bytes()); // warm-up: compiles the path
        for (int threads : options.threads()) {
            int each = options.roundTrips() / threads;
            MPI.COMM_WORLD.barrier();
            long start = System.nanoTime();
            run(threads, each, options.bytes());
            double millis = (System.nanoTime() - start) / 1e6;
            if (rank == 0) {
                System.out.printf("threads %d round-trips %d each total %.1f ms %.3f us per round trip%n",
                        threads, each, millis, millis * 1e3 / ((double) each * threads));
                results.row(threads, millis * 1e3 / ((double) each * threads), millis);
            }
        }
        MPI.Finalize();
    }

    /** {@code threads} threads each make {@code each} round trips on a tag of their own; rethrows a failure. */
    private static void run(int threads, int each, int bytes) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] running = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int tag = t;
            running[t] = new Thread(() -> {
                try {
                    roundTrips(tag, each, bytes);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "round-trips-" + t);
            running[t].start();
        }
        for (Thread thread : running) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a thread of the round trips failed", failure.get());
        }
    }

    private static void roundTrips(int tag, int count, int bytes) throws MPIException {
        ByteBuffer buffer = MPI.newByteBuffer(Math.max(bytes, 1));
        boolean first = MPI.COMM_WORLD.getRank() == 0;
        int peer = first ? 1 : 0;
        for (int i = 0; i < count; i++) {
            if (first) {
                MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, peer, tag);
                MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, peer, tag);
            } else {
                MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, peer, tag);
                MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, peer, tag);
            }
        }
    }

    /** The command line: thread counts, total round trips and message size. */
    private record Options(List<Integer> threads, int roundTrips, int bytes) {
        static Options parse(String[] args) {
            List<Integer> threads = List.of(1, 4);
            int roundTrips = 40_000;
            int bytes = 0;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "-t" -> threads = threadCounts(args[++i]);
                    case "-i" -> roundTrips = Integer.parseInt(args[++i]);
                    case "-m" -> bytes = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + " (options: -t threadCounts, -i roundTrips, -m bytes)");
                }
            }
            return new Options(threads, roundTrips, bytes);
        }

        private static List<Integer> threadCounts(String list) {
            List<Integer> counts = new ArrayList<>();
            for (String count : list.split(",")) {
                int threads = Integer.parseInt(count.trim());
                if (threads < 1) {
                    throw new IllegalArgumentException("thread counts are at least 1, not " + threads);
                }
                counts.add(threads);
            }
            return counts;
        }
    }
}
