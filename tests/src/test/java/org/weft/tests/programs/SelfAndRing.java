package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/** Each rank sends one message to itself and one to the next rank: every method a pair can use gets used. */
public final class SelfAndRing {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program without {@code Init} and {@code Finalize} ({@link InOneJob}). */
    public static void run(String[] args) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] got = new int[1];
        MPI.COMM_WORLD.sendRecv(new int[] {rank}, 1, MPI.INT, rank, 1, got, 1, MPI.INT, rank, 1);
        MPI.COMM_WORLD.sendRecv(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 2, got, 1, MPI.INT,
                (rank + size - 1) % size, 2);
    }

    private SelfAndRing() {
    }
}
