package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Large and small messages mixed, all in flight at once, received with wildcards: every rank but 0 starts
 * {@code perSender} nonblocking sends to rank 0 (sizes cycling from 0 bytes to several MiB, tag = sequence number,
 * odd ones from a direct buffer, even ones from a heap array); rank 0 probes with {@code ANY_SOURCE}/{@code ANY_TAG},
 * checks that each sender's messages come in the order sent with the size the probe said, receives that message
 * (into a heap array or a direct buffer, alternately) and checks every byte. Over a wide-area path the large ones
 * are striped over several streams while the small ones pass them on the shared connection: matching must still
 * see each sender's messages in order. Prints {@code STRIPED OK} and the messages received.
 */
public final class StripedWildcards {
    static final int[] SIZES = {0, 3 << 20, 8, (2 << 20) + 7, 1000, 65_537, (5 << 20) + 3, 200_000, 1 << 20};
    private static final int LARGEST = (5 << 20) + 3;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int perSender = args.length > 0 ? Integer.parseInt(args[0]) : SIZES.length * 2;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (rank != 0) {
            Request[] sends = new Request[perSender];
            for (int i = 0; i < perSender; i++) {
                int n = SIZES[i % SIZES.length];
                if (i % 2 == 1) {
                    ByteBuffer data = MPI.newByteBuffer(Math.max(1, n));
                    for (int b = 0; b < n; b++) {
                        data.put(b, pattern(rank, i, b));
                    }
                    sends[i] = MPI.COMM_WORLD.iSend(data, n, MPI.BYTE, 0, i);
                } else {
                    byte[] data = new byte[n];
                    for (int b = 0; b < n; b++) {
                        data[b] = pattern(rank, i, b);
                    }
                    sends[i] = MPI.COMM_WORLD.iSend(ByteBuffer.wrap(data), n, MPI.BYTE, 0, i);
                }
            }
            Request.waitAll(sends);
        } else {
            receiveAll(perSender, size);
        }
        MPI.Finalize();
    }

    private static void receiveAll(int perSender, int size) throws MPIException {
        byte[] heap = new byte[LARGEST];
        ByteBuffer direct = MPI.newByteBuffer(LARGEST);
        int[] next = new int[size];
        for (int m = 0; m < perSender * (size - 1); m++) {
            Status probed = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
            int source = probed.getSource();
            int seq = probed.getTag();
            int n = probed.getCount(MPI.BYTE);
            check(seq == next[source], "from " + source + " expected message " + next[source] + ", got " + seq);
            check(n == SIZES[seq % SIZES.length], "message " + seq + " from " + source + " has " + n + " bytes");
            boolean intoHeap = m % 2 == 0;
            Status status = intoHeap
                    ? MPI.COMM_WORLD.recv(heap, LARGEST, MPI.BYTE, source, seq)
                    : MPI.COMM_WORLD.recv(direct, LARGEST, MPI.BYTE, source, seq);
            check(status.getCount(MPI.BYTE) == n, "message " + seq + " from " + source + ": received "
                    + status.getCount(MPI.BYTE) + " of " + n + " bytes");
            for (int b = 0; b < n; b++) {
                byte got = intoHeap ? heap[b] : direct.get(b);
                if (got != pattern(source, seq, b)) { // the line only then: 47 MB of them took minutes under load
                    check(false, "byte " + b + " of message " + seq + " from " + source);
                }
            }
            next[source]++;
        }
        System.out.println("STRIPED OK " + perSender * (size - 1) + " messages");
    }

    static byte pattern(int source, int seq, int index) {
        return (byte) (source * 31 + seq * 7 + index * 13 + (index >> 9));
    }

    private static void check(boolean ok, String what) throws MPIException {
        if (!ok) {
            System.out.println("STRIPED WRONG: " + what);
            System.out.flush();
            MPI.COMM_WORLD.abort(1);
        }
    }
}
