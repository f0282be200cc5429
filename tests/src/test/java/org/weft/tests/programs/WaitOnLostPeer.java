package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.ByteBuffer;

/**
 * Two ranks meet over tcp, then each waits on the other in a way that only the other can end — rank 0 by the
 * operation {@code OP} names, rank 1 in a receive — while the test cuts their connection from outside (both
 * processes live on). Each rank must get an {@code MPIException} naming the other, not wait forever: it prints
 * {@code LOST rank=R op=OP class=C: MESSAGE} and finalizes. Rank 0 prints {@code READY OP} before it starts to wait,
 * rank 1 {@code PEER READY} (the exchange that made the connection is over on both sides then).
 *
 * <p>{@code OP}: {@code recv} (a receive from rank 1), {@code anysource} (a receive from any source), {@code probe}
 * (a blocking probe), {@code rendezvous} (a 4 MiB send waiting for the receiver's clear-to-send), {@code ssend} (a
 * synchronous send waiting for its match), {@code backpressure} (64 MiB of eager sends to a rank that does not
 * receive: most wait in the device's queue).
 */
public final class WaitOnLostPeer {
    /** Rank 0 waits on this tag, which rank 1 never sends; rank 1 on {@link #NEVER_SENT_BACK}, which 0 never sends. */
    private static final int NEVER_SENT = 7;
    private static final int NEVER_SENT_BACK = 8;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String op = args[0];
        int rank = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int[] token = {rank};
        int[] other = new int[1];
        // the connection exists from here on (both directions used)
        MPI.COMM_WORLD.sendRecv(token, 1, MPI.INT, 1 - rank, 1, other, 1, MPI.INT, 1 - rank, 1);
        try {
            if (rank == 0) {
                System.out.println("READY " + op);
                System.out.flush();
                waitBy(op);
            } else {
                System.out.println("PEER READY");
                System.out.flush();
                if (op.equals("backpressure")) {
                    sleepWithoutPolling(); // rank 0's sends fill the connection and then its queue
                }
                MPI.COMM_WORLD.recv(other, 1, MPI.INT, 0, NEVER_SENT_BACK);
            }
            System.out.println("NOT LOST rank=" + rank + " op=" + op);
        } catch (MPIException e) {
            System.out.println("LOST rank=" + rank + " op=" + op + " class=" + e.getErrorClass() + ": "
                    + e.getMessage().replace('\n', ' '));
        }
        System.out.flush();
        MPI.Finalize();
    }

    private static void sleepWithoutPolling() {
        try {
            Thread.sleep(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitBy(String op) throws MPIException {
        int[] one = new int[1];
        switch (op) {
            case "recv" -> MPI.COMM_WORLD.recv(one, 1, MPI.INT, 1, NEVER_SENT);
            case "anysource" -> MPI.COMM_WORLD.recv(one, 1, MPI.INT, MPI.ANY_SOURCE, NEVER_SENT);
            case "probe" -> MPI.COMM_WORLD.probe(1, NEVER_SENT);
            case "rendezvous" -> {
                ByteBuffer large = MPI.newByteBuffer(4 << 20);
                MPI.COMM_WORLD.send(large, large.capacity(), MPI.BYTE, 1, NEVER_SENT);
            }
            case "ssend" -> MPI.COMM_WORLD.sSend(one, 1, MPI.INT, 1, NEVER_SENT);
            case "backpressure" -> {
                ByteBuffer piece = MPI.newByteBuffer(32 << 10);
                Request[] sends = new Request[2048];
                for (int i = 0; i < sends.length; i++) {
                    sends[i] = MPI.COMM_WORLD.iSend(piece, piece.capacity(), MPI.BYTE, 1, NEVER_SENT);
                }
                for (Request send : sends) {
                    send.waitFor();
                }
            }
            default -> throw new IllegalArgumentException(op);
        }
    }

    private WaitOnLostPeer() {
    }
}
