package org.weft.tests.programs;

import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A spawned process ({@link SpawnParent}): prints its world, APPNUM and argument ({@code CHILD r of n appnum A
 * arg X parent P}), receives the parents' broadcast, sends its world rank to their sum, disconnects.
 */
public final class SpawnChild {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intercomm parent = Intercomm.getParent();
        int rank = MPI.COMM_WORLD.getRank();
        if (args[0].equals("abort")) {
            if (rank == 0) {
                MPI.COMM_WORLD.abort(3);
            }
            MPI.COMM_WORLD.barrier(); // the others wait: the launcher must end them
        }
        int[] value = new int[1];
        parent.bcast(value, 1, MPI.INT, 0);
        System.out.println("CHILD " + rank + " of " + MPI.COMM_WORLD.getSize() + " appnum "
                + MPI.COMM_WORLD.getAttr(MPI.APPNUM) + " arg " + args[0] + " parents " + parent.getRemoteSize()
                + " got " + value[0]);
        parent.reduce(new int[] {rank}, new int[1], 1, MPI.INT, MPI.SUM, 0);
        parent.disconnect();
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    private SpawnChild() {
    }
}
