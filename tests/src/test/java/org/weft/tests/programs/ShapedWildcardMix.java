package org.weft.tests.programs;

import java.util.SplittableRandom;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Every rank but 0 starts {@code perSender} nonblocking sends to rank 0 at once (so that a path that aggregates
 * holds them) and waits for them all; sizes cycle over small, eager and rendezvous ones, the larger alternately
 * compressible (runs of one byte) and random. Rank 0 takes them all with {@code ANY_SOURCE}/{@code ANY_TAG} and checks
 * per-sender order (tag = sequence number), sizes and every byte. Prints {@code MIX OK N messages}.
 */
public final class ShapedWildcardMix {
    static final int[] SIZES = {4, 100, 3, 20_000, 8, 300_000, 60_000, 16, 150_000};

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int perSender = args.length > 0 ? Integer.parseInt(args[0]) : 90;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (rank != 0) {
            byte[][] messages = new byte[perSender][];
            Request[] sends = new Request[perSender];
            for (int i = 0; i < perSender; i++) {
                messages[i] = content(rank, i);
                sends[i] = MPI.COMM_WORLD.iSend(MPI.newByteBuffer(messages[i].length).put(messages[i]),
                        messages[i].length, MPI.BYTE, 0, i);
            }
            Request.waitAll(sends);
        } else {
            byte[] buffer = new byte[300_000];
            int[] next = new int[size];
            for (int m = 0; m < perSender * (size - 1); m++) {
                Status status = MPI.COMM_WORLD.recv(buffer, buffer.length, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int source = status.getSource();
                int seq = status.getTag();
                check(seq == next[source], "from " + source + " expected message " + next[source] + ", got " + seq);
                byte[] expected = content(source, seq);
                check(status.getCount(MPI.BYTE) == expected.length, "message " + seq + " from " + source + " has "
                        + status.getCount(MPI.BYTE) + " bytes, not " + expected.length);
                for (int b = 0; b < expected.length; b++) {
                    check(buffer[b] == expected[b], "byte " + b + " of message " + seq + " from " + source);
                }
                next[source]++;
            }
            System.out.println("MIX OK " + perSender * (size - 1) + " messages");
        }
        MPI.Finalize();
    }

    /** Message {@code seq} of {@code source}: odd ones random, even ones runs of one byte. */
    static byte[] content(int source, int seq) {
        byte[] bytes = new byte[SIZES[seq % SIZES.length]];
        if (seq % 2 == 1) {
            new SplittableRandom(source * 100_003L + seq).nextBytes(bytes);
        } else {
            for (int b = 0; b < bytes.length; b++) {
                bytes[b] = (byte) (source + seq + b / 512);
            }
        }
        return bytes;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("mix broken: " + what);
        }
    }
}
