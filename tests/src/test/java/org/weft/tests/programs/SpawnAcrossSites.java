package org.weft.tests.programs;

import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A world spread over sites spawns one child (its root, rank 0, spawns it in its own site), and the child exchanges a
 * message with every parent, so with some of them across the wide area: each parent sends its rank to the child,
 * which answers with it times ten. Prints {@code ACROSS OK} at each parent whose answer came right.
 */
public final class SpawnAcrossSites {
    private static final int TAG = 21;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intercomm parent = Intercomm.getParent();
        if (parent.isNull()) {
            parentSide();
        } else {
            childSide(parent);
        }
        MPI.Finalize();
    }

    private static void parentSide() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        Intercomm child = MPI.COMM_WORLD.spawn(SpawnAcrossSites.class.getName(), new String[0], 1, MPI.INFO_NULL, 0,
                null);
        child.send(new int[] {rank}, 1, MPI.INT, 0, TAG);
        int[] answer = new int[1];
        child.recv(answer, 1, MPI.INT, 0, TAG);
        System.out.println(answer[0] == rank * 10 ? "ACROSS OK " + rank : "ACROSS WRONG " + rank + ": " + answer[0]);
        child.disconnect();
    }

    private static void childSide(Intercomm parent) throws MPIException {
        for (int p = 0; p < parent.getRemoteSize(); p++) {
            int[] value = new int[1];
            parent.recv(value, 1, MPI.INT, p, TAG);
            parent.send(new int[] {value[0] * 10}, 1, MPI.INT, p, TAG);
        }
        parent.disconnect();
    }

    private SpawnAcrossSites() {
    }
}
