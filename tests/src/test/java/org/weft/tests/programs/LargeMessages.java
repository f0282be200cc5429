package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Large (rendezvous) messages between ranks 0 and 1, every byte checked: direct buffers both ways at sizes around and
 * above the eager limits; a receive posted after the request to send arrived; a receive into a smaller buffer
 * ({@code ERR_TRUNCATE}, the part that fits delivered); a direct buffer to a {@code byte[]} and back; eight
 * transfers in flight at once, received in the opposite order. Prints {@code LARGE OK} and the number of messages
 * rank 0 sent.
 */
public final class LargeMessages {
    private static final int[] SIZES = {65_537, 300_000, 1 << 20, (4 << 20) + 3};
    private static int messages;

    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program without {@code Init} and {@code Finalize} ({@link InOneJob}). */
    public static void run(String[] args) throws MPIException, InterruptedException {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int rank = MPI.COMM_WORLD.getRank();
        if (rank < 2) {
            int peer = 1 - rank;
            for (int size : SIZES) {
                directBothWays(rank, peer, size);
            }
            receivePostedLate(rank, peer, 1 << 20);
            truncated(rank, peer, 200_000, 150_000);
            directToHeapAndBack(rank, peer, 500_000);
            directToHeapAndBack(rank, peer, (1 << 20) + 5); // heap arrays this large go in place through a copy
            manyInFlight(rank, peer, 8, 200_000);
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            System.out.println("LARGE OK " + messages + " messages");
        }
    }

    /** Rank 0 sends, rank 1 checks and sends it back, rank 0 checks. */
    private static void directBothWays(int rank, int peer, int size) throws MPIException {
        ByteBuffer buffer = MPI.newByteBuffer(size);
        if (rank == 0) {
            fill(buffer, size, 7);
            send(buffer, size, MPI.BYTE, peer, 1);
            clear(buffer, size);
            MPI.COMM_WORLD.recv(buffer, size, MPI.BYTE, peer, 2);
            check(buffer, size, 7, "echo of " + size);
        } else {
            Status status = MPI.COMM_WORLD.recv(buffer, size, MPI.BYTE, peer, 1);
            check(buffer, size, 7, "message of " + size);
            expect(status.getCount(MPI.BYTE) == size, "count " + status.getCount(MPI.BYTE) + " of " + size);
            MPI.COMM_WORLD.send(buffer, size, MPI.BYTE, peer, 2);
        }
    }

    /** The request to send is unexpected: rank 1 posts its receive only after a go-ahead sent after it. */
    private static void receivePostedLate(int rank, int peer, int size) throws MPIException, InterruptedException {
        ByteBuffer buffer = MPI.newByteBuffer(size);
        int[] go = new int[1];
        if (rank == 0) {
            fill(buffer, size, 11);
            Request send = MPI.COMM_WORLD.iSend(buffer, size, MPI.BYTE, peer, 3);
            messages++;
            send(go, 1, MPI.INT, peer, 4);
            send.waitFor();
        } else {
            MPI.COMM_WORLD.recv(go, 1, MPI.INT, peer, 4);
            Thread.sleep(50);
            MPI.COMM_WORLD.recv(buffer, size, MPI.BYTE, peer, 3);
            check(buffer, size, 11, "late-posted receive");
        }
    }

    private static void truncated(int rank, int peer, int size, int room) throws MPIException {
        if (rank == 0) {
            ByteBuffer buffer = MPI.newByteBuffer(size);
            fill(buffer, size, 13);
            send(buffer, size, MPI.BYTE, peer, 5);
            return;
        }
        ByteBuffer small = MPI.newByteBuffer(room);
        try {
            MPI.COMM_WORLD.recv(small, room, MPI.BYTE, peer, 5);
            throw new IllegalStateException("a " + size + "-byte message fit a " + room + "-byte buffer");
        } catch (MPIException e) {
            expect(e.getErrorClass() == MPI.ERR_TRUNCATE, "error class " + e.getErrorClass() + ": " + e);
        }
        check(small, room, 13, "the part of a truncated message that fits");
    }

    private static void directToHeapAndBack(int rank, int peer, int size) throws MPIException {
        if (rank == 0) {
            ByteBuffer direct = MPI.newByteBuffer(size);
            fill(direct, size, 17);
            send(direct, size, MPI.BYTE, peer, 6);
            clear(direct, size);
            MPI.COMM_WORLD.recv(direct, size, MPI.BYTE, peer, 7);
            check(direct, size, 17, "heap to direct");
        } else {
            byte[] heap = new byte[size];
            MPI.COMM_WORLD.recv(heap, size, MPI.BYTE, peer, 6);
            check(ByteBuffer.wrap(heap), size, 17, "direct to heap");
            MPI.COMM_WORLD.send(heap, size, MPI.BYTE, peer, 7);
        }
    }

    private static void manyInFlight(int rank, int peer, int count, int size) throws MPIException {
        ByteBuffer[] buffers = new ByteBuffer[count];
        Request[] requests = new Request[count];
        for (int i = 0; i < count; i++) {
            buffers[i] = MPI.newByteBuffer(size);
        }
        if (rank == 0) {
            for (int i = 0; i < count; i++) {
                fill(buffers[i], size, 100 + i);
                requests[i] = MPI.COMM_WORLD.iSend(buffers[i], size, MPI.BYTE, peer, 100 + i);
                messages++;
            }
        } else {
            for (int i = count - 1; i >= 0; i--) {
                requests[i] = MPI.COMM_WORLD.iRecv(buffers[i], size, MPI.BYTE, peer, 100 + i);
            }
        }
        Request.waitAll(requests);
        if (rank == 1) {
            for (int i = 0; i < count; i++) {
                check(buffers[i], size, 100 + i, "transfer " + i + " of " + count + " in flight");
            }
        }
    }

    private static void send(Object buffer, int count, mpi.Datatype type, int peer, int tag) throws MPIException {
        MPI.COMM_WORLD.send(buffer, count, type, peer, tag);
        if (MPI.COMM_WORLD.getRank() == 0) {
            messages++;
        }
    }

    private static void fill(ByteBuffer buffer, int size, int seed) {
        for (int i = 0; i < size; i++) {
            buffer.put(i, pattern(i, seed));
        }
    }

    private static void clear(ByteBuffer buffer, int size) {
        for (int i = 0; i < size; i++) {
            buffer.put(i, (byte) 0);
        }
    }

    private static void check(ByteBuffer buffer, int size, int seed, String what) {
        for (int i = 0; i < size; i++) {
            if (buffer.get(i) != pattern(i, seed)) {
                throw new IllegalStateException(what + ": byte " + i + " is " + buffer.get(i) + ", expected "
                        + pattern(i, seed));
            }
        }
    }

    /** Varies with the position past every power of two, so a misplaced block shows. */
    private static byte pattern(int i, int seed) {
        return (byte) (i * 31 + (i >>> 8) * 7 + (i >>> 16) + seed);
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what);
        }
    }
}
