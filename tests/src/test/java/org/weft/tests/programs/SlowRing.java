package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * A token goes around the ring {@code rounds} times with a pause at rank 0, so the job lives for a few seconds
 * while a test knocks on its ports. Prints {@code RING OK value}.
 */
public final class SlowRing {
    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] token = {0};
        for (int round = 0; round < rounds; round++) {
            if (rank == 0) {
                Thread.sleep(150);
                MPI.COMM_WORLD.send(token, 1, MPI.INT, (rank + 1) % size, 0);
                MPI.COMM_WORLD.recv(token, 1, MPI.INT, size - 1, 0);
            } else {
                MPI.COMM_WORLD.recv(token, 1, MPI.INT, rank - 1, 0);
                token[0]++;
                MPI.COMM_WORLD.send(token, 1, MPI.INT, (rank + 1) % size, 0);
            }
        }
        if (rank == 0) {
            System.out.println("RING OK " + token[0]);
        }
        MPI.Finalize();
    }
}
