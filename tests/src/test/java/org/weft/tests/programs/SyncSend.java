package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.ByteBuffer;

/**
 * {@code sSend} does not complete before the matching receive: rank 0 starts a synchronous send to rank 1 and polls
 * it for a while; rank 1 posts the matching receive only after a go-ahead message, so the send must not have
 * completed before. Small and large messages. Prints {@code SSEND OK}.
 */
public final class SyncSend {
    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        for (int n : new int[] {4, 300_000}) {
            ByteBuffer data = MPI.newByteBuffer(n);
            int[] go = new int[1];
            if (rank == 0) {
                Request send = MPI.COMM_WORLD.isSend(data, n, MPI.BYTE, 1, 1);
                for (int i = 0; i < 50; i++) {
                    if (send.test()) {
                        throw new IllegalStateException("sSend of " + n + " bytes completed before the receive");
                    }
                    Thread.sleep(4);
                }
                MPI.COMM_WORLD.send(go, 1, MPI.INT, 1, 2);
                send.waitFor();
                MPI.COMM_WORLD.sSend(go, 1, MPI.INT, 1, 3);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(go, 1, MPI.INT, 0, 2);
                MPI.COMM_WORLD.recv(data, n, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.recv(go, 1, MPI.INT, 0, 3);
            }
        }
        if (rank == 0) {
            System.out.println("SSEND OK");
        }
        MPI.Finalize();
    }
}
