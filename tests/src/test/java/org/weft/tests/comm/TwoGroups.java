package org.weft.tests.comm;

import java.util.stream.IntStream;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The world split into a low and a high group joined by {@code createIntercomm}: the low group holds
 * {@code max(1, (size − 1) / 2)} ranks, so the two groups differ in size from three ranks on.
 *
 * @param lowSize ranks in the low group (world ranks {@code 0 .. lowSize − 1})
 * @param low     whether this process is in the low group
 * @param half    this process's group as an intracommunicator
 * @param inter   the intercommunicator between the groups
 */
public record TwoGroups(int lowSize, boolean low, Intracomm half, Intercomm inter) {
    /** Collective over {@code MPI.COMM_WORLD}, whose error handler becomes {@code ERRORS_RETURN}. */
    public static TwoGroups of(int size, int rank) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        int lowSize = Math.max(1, (size - 1) / 2);
        boolean low = rank < lowSize;
        Intracomm half = world.split(low ? 0 : 1, rank);
        Intercomm inter = world.createIntercomm(half, 0, low ? lowSize : 0, 11);
        inter.setErrhandler(MPI.ERRORS_RETURN);
        return new TwoGroups(lowSize, low, half, inter);
    }

    /** World ranks of the remote group, in its rank order. */
    public int[] remoteWorld() throws MPIException {
        return IntStream.range(0, inter.getRemoteSize()).map(r -> low ? lowSize + r : r).toArray();
    }

    /** Frees the intercommunicator and the half. */
    public void free() throws MPIException {
        inter.free();
        half.free();
    }
}
