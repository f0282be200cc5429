package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.Request;

/**
 * A correct program that needs point-to-point progress while a collective waits: rank 0 starts a large send to rank
 * 1, then joins an allreduce and only then waits for the send; rank 1 receives the message before it joins the
 * allreduce. Under Open MPI and MPICH (whose collectives run their progress engines) it ends; a collective that stops
 * rank 0's progress while it waits for rank 1 hangs it. Twice: the communicator's first collective (which may set
 * things up for it) and a later one. Prints {@code PROGRESS OK rank R sum S}.
 */
public final class ProgressDuringCollective {
    private ProgressDuringCollective() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int bytes = Integer.parseInt(args[0]);
        ByteBuffer message = MPI.newByteBuffer(bytes);
        int[] value = new int[1];
        for (int round = 0; round < 2; round++) {
            value[0] = rank + 1;
            if (rank == 0) {
                Request send = MPI.COMM_WORLD.iSend(message, bytes, MPI.BYTE, 1, 7);
                MPI.COMM_WORLD.allReduce(value, 1, MPI.INT, MPI.SUM);
                send.waitFor();
            } else {
                if (rank == 1) {
                    MPI.COMM_WORLD.recv(message, bytes, MPI.BYTE, 0, 7);
                }
                MPI.COMM_WORLD.allReduce(value, 1, MPI.INT, MPI.SUM);
            }
        }
        System.out.println("PROGRESS OK rank " + rank + " sum " + value[0]);
        MPI.Finalize();
    }
}
