package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Every rank but 0 sends {@code perSender} messages to rank 0, with sizes cycling across the eager/rendezvous
 * threshold and tag = sequence number; rank 0 receives them all with {@code ANY_SOURCE}/{@code ANY_TAG} and checks
 * that each sender's messages arrive in order, with the right size and content. Prints {@code ORDER OK}.
 */
public final class WildcardOrdering {
    static final int[] SIZES = {0, 8, 1000, 65_000, 65_537, 200_000, 3};

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int perSender = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        byte[] buffer = new byte[200_000];
        if (rank != 0) {
            for (int i = 0; i < perSender; i++) {
                int n = SIZES[i % SIZES.length];
                for (int b = 0; b < n; b++) {
                    buffer[b] = pattern(rank, i, b);
                }
                MPI.COMM_WORLD.send(buffer, n, MPI.BYTE, 0, i);
            }
        } else {
            int[] next = new int[size];
            for (int m = 0; m < perSender * (size - 1); m++) {
                Status status = MPI.COMM_WORLD.recv(buffer, buffer.length, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int source = status.getSource();
                int seq = status.getTag();
                int n = status.getCount(MPI.BYTE);
                check(seq == next[source], "from " + source + " expected message " + next[source] + ", got " + seq);
                check(n == SIZES[seq % SIZES.length], "message " + seq + " from " + source + " has " + n + " bytes");
                for (int b = 0; b < n; b++) {
                    check(buffer[b] == pattern(source, seq, b), "byte " + b + " of message " + seq + " from " + source);
                }
                next[source]++;
            }
            System.out.println("ORDER OK " + perSender * (size - 1) + " messages");
        }
        MPI.Finalize();
    }

    static byte pattern(int source, int seq, int index) {
        return (byte) (source * 31 + seq * 7 + index);
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("ordering broken: " + what);
        }
    }
}
