package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Every rank but 0 sends {@code perSender} messages to rank 0 (tag = sequence number, small sizes with now and then
 * one past the eager limit); rank 0 takes them all in one {@code ANY_SOURCE}/{@code ANY_TAG} stream and checks
 * per-sender order, tags, sizes and bytes, and times every receive: one that waits longer than {@code maxWaitMillis}
 * is a stall (MPJ Express's hybrid device slept 2 s between its devices: most receives from the other device would
 * wait that long). More than {@value #STALLS_ALLOWED} of them, or one of over ten times the limit, fails the program:
 * a loaded machine (load 30) may keep a sender from a core for a second now and then, but not time after time.
 * Prints {@code STREAM OK N messages, longest wait T ms}.
 */
public final class TimedWildcardStream {
    private static final int LARGE = 70_000;
    private static final int STALLS_ALLOWED = 3;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program without {@code Init} and {@code Finalize} ({@link InOneJob}). */
    public static void run(String[] args) throws MPIException {
        int perSender = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        long maxWaitMillis = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        byte[] buffer = new byte[LARGE];
        MPI.COMM_WORLD.barrier();
        if (rank != 0) {
            for (int seq = 0; seq < perSender; seq++) {
                int n = size(seq);
                for (int b = 0; b < n; b++) {
                    buffer[b] = WildcardOrdering.pattern(rank, seq, b);
                }
                MPI.COMM_WORLD.send(buffer, n, MPI.BYTE, 0, seq);
            }
        } else {
            int[] next = new int[size];
            long longest = 0;
            int stalls = 0;
            for (int m = 0; m < perSender * (size - 1); m++) {
                long start = System.nanoTime();
                Status status = MPI.COMM_WORLD.recv(buffer, buffer.length, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                long waited = (System.nanoTime() - start) / 1_000_000;
                longest = Math.max(longest, waited);
                int source = status.getSource();
                int seq = status.getTag();
                stalls += waited > maxWaitMillis ? 1 : 0;
                WildcardOrdering.check(stalls <= STALLS_ALLOWED && waited <= 10 * maxWaitMillis, "message " + m
                        + " (from " + source + ") took " + waited + " ms to arrive, " + stalls + " over "
                        + maxWaitMillis + " ms so far");
                WildcardOrdering.check(seq == next[source], "from " + source + " expected message " + next[source]
                        + ", got " + seq);
                int n = status.getCount(MPI.BYTE);
                WildcardOrdering.check(n == size(seq), "message " + seq + " from " + source + " has " + n + " bytes");
                for (int b = 0; b < n; b++) {
                    WildcardOrdering.check(buffer[b] == WildcardOrdering.pattern(source, seq, b),
                            "byte " + b + " of message " + seq + " from " + source);
                }
                next[source]++;
            }
            System.out.println("STREAM OK " + perSender * (size - 1) + " messages, longest wait " + longest + " ms");
        }
    }

    /** Mostly small messages of varied sizes; every 97th past the eager limit, to mix in rendezvous. */
    private static int size(int seq) {
        return seq % 97 == 96 ? LARGE : (seq * 37) % 1500;
    }

    private TimedWildcardStream() {
    }
}
