package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank initializes, meets the others at a barrier, prints {@code RANK R WAITING}, then waits in a receive for
 * a message that never comes, as a rank inside MPI does, until the job is ended from outside (or, so that nothing
 * outlives a broken test, for {@code SECONDS}, default 60). The arguments after the first are ignored: a test marks
 * its ranks' command lines with them.
 */
public final class WaitAfterInit {
    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        MPI.COMM_WORLD.barrier();
        System.out.println("RANK " + MPI.COMM_WORLD.getRank() + " WAITING");
        mpi.Request never = MPI.COMM_WORLD.iRecv(java.nio.ByteBuffer.allocateDirect(4), 1, MPI.INT, MPI.ANY_SOURCE,
                99);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (!never.test() && System.nanoTime() < end) {
            Thread.sleep(50);
        }
        System.exit(1);
    }

    private WaitAfterInit() {
    }
}
