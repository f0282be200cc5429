package org.weft.tests.programs;

import mpi.Info;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Spawns {@code args[0]} children ({@link SpawnChild}), times the spawn at the root ({@code SPAWNED n in T ms}),
 * broadcasts a value to them over the intercommunicator, gets the sum of their world ranks back, and disconnects;
 * {@code args[1] == "multiple"} spawns two commands (1 and n-1 children), each its own APPNUM;
 * {@code args[1] == "missing"} spawns a class that is not there under ERRORS_RETURN and prints the error class;
 * {@code args[1] == "abort"} has the children's rank 0 abort the job with code 3 ({@code args[2]} is a marker).
 */
public final class SpawnParent {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int n = Integer.parseInt(args[0]);
        String mode = args.length > 1 ? args[1] : "single";
        System.out.println("PARENT " + rank + " parent null " + Intercomm.getParent().isNull());
        if (mode.equals("missing")) {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try {
                MPI.COMM_WORLD.spawn("no.such.Program", new String[0], n, MPI.INFO_NULL, 0, null);
                System.out.println("PARENT " + rank + " SPAWNED a missing class?!");
            } catch (MPIException e) {
                System.out.println("PARENT " + rank + " spawn failed class " + e.getErrorClass());
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
            return;
        }
        long start = System.nanoTime();
        int[] errcodes = new int[n];
        Intercomm children;
        if (mode.equals("multiple")) {
            children = MPI.COMM_WORLD.spawnMultiple(new String[] {SpawnChild.class.getName(),
                SpawnChild.class.getName()}, new String[][] {{"first"}, {"second"}}, new int[] {1, n - 1},
                new Info[] {MPI.INFO_NULL, MPI.INFO_NULL}, 0, errcodes);
        } else {
            // "abort": the children's rank 0 aborts the job (a marker in its arguments lets the test look for leftovers)
            String[] childArgs = mode.equals("abort") ? new String[] {"abort", args[2]} : new String[] {"only"};
            children = MPI.COMM_WORLD.spawn(SpawnChild.class.getName(), childArgs, n, MPI.INFO_NULL, 0, errcodes);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (rank == 0) {
            System.out.println("SPAWNED " + children.getRemoteSize() + " in " + millis + " ms errcodes "
                    + java.util.Arrays.toString(errcodes));
        }
        int[] value = {rank == 0 ? 4242 : -1};
        children.bcast(value, 1, MPI.INT, rank == 0 ? MPI.ROOT : MPI.PROC_NULL);
        int[] sum = new int[1];
        children.reduce(new int[0], sum, 1, MPI.INT, MPI.SUM, rank == 0 ? MPI.ROOT : MPI.PROC_NULL);
        if (rank == 0) {
            System.out.println("PARENT children's ranks sum " + sum[0]);
        }
        children.disconnect();
        MPI.Finalize();
    }

    private SpawnParent() {
    }
}
