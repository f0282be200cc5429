package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Each rank prints where it stands: {@code WORLD rank R of N site S local L}, with S and L the launcher's
 * {@code WEFT_SITE} and {@code WEFT_LOCAL_SIZE}; then all meet at a barrier so the ranks have really talked.
 */
public final class ShowWorld {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("WORLD rank " + rank + " of " + size + " site " + System.getenv("WEFT_SITE") + " local "
                + System.getenv("WEFT_LOCAL_SIZE"));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    private ShowWorld() {
    }
}
