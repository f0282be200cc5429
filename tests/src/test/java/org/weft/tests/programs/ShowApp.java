package org.weft.tests.programs;

import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * One program of an MPMD job: prints its app context ({@code APP label rank R of N appnum A}), what
 * {@code MPI.INFO_ENV} says of it and {@code ROLE} from its environment; then the ranks of each app context form a
 * communicator of their own and, through an intercommunicator to the other context, sum the other side's world
 * ranks ({@code REMOTE size S sum X}), which proves one {@code COMM_WORLD} holds both programs.
 */
public final class ShowApp {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Object appNum = MPI.COMM_WORLD.getAttr(MPI.APPNUM);
        Info env = MPI.INFO_ENV;
        System.out.println("APP " + args[0] + " rank " + rank + " of " + size + " appnum " + appNum + " maxprocs "
                + env.get("maxprocs") + " command " + env.get("command") + " argv " + env.get("argv")
                + " thread_level " + env.get("thread_level") + " role " + System.getenv("ROLE") + " universe "
                + MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE));
        int app = (Integer) appNum;
        Intracomm mine = MPI.COMM_WORLD.split(app, rank);
        int otherLeader = -1;
        int[] firstOfEach = new int[size];
        MPI.COMM_WORLD.allGather(new int[] {app}, 1, MPI.INT, firstOfEach, 1, MPI.INT);
        for (int r = 0; r < size && otherLeader < 0; r++) {
            otherLeader = firstOfEach[r] != app ? r : -1;
        }
        Intercomm other = MPI.COMM_WORLD.createIntercomm(mine, 0, otherLeader, 7);
        int[] sum = new int[1];
        other.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        System.out.println("REMOTE " + args[0] + " rank " + rank + " size " + other.getRemoteSize() + " sum "
                + sum[0]);
        other.free();
        mine.free();
        MPI.Finalize();
    }

    private ShowApp() {
    }
}
