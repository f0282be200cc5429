package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import java.nio.IntBuffer;

/**
 * Cancelling a receive that nothing matches: it completes as cancelled, and a message sent afterwards with the
 * same envelope goes to the next receive instead. Prints {@code CANCEL OK}.
 */
public final class CancelRecv {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int peer = (rank + 1) % size;
        int from = (rank + size - 1) % size;
        IntBuffer never = MPI.newIntBuffer(1);
        Request pending = MPI.COMM_WORLD.iRecv(never, 1, MPI.INT, from, 9);
        pending.cancel();
        Status status = pending.waitStatus();
        if (!status.isCancelled()) {
            throw new IllegalStateException("the receive was not cancelled");
        }
        MPI.COMM_WORLD.barrier();
        int[] value = {rank + 100};
        int[] got = new int[1];
        MPI.COMM_WORLD.sendRecv(value, 1, MPI.INT, peer, 9, got, 1, MPI.INT, from, 9);
        if (got[0] != from + 100 || never.get(0) != 0) {
            throw new IllegalStateException("message after cancel went astray: " + got[0] + ", " + never.get(0));
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            System.out.println("CANCEL OK");
        }
        MPI.Finalize();
    }
}
