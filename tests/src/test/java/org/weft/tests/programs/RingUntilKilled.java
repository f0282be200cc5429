package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Every rank passes 64 KiB messages around the ring without pause until the job is ended from outside (or, so
 * that nothing outlives a broken test, for {@code SECONDS}, default 60). Rank 0 prints {@code RING RUNNING} after
 * the first round.
 */
public final class RingUntilKilled {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        byte[] out = new byte[64 * 1024];
        byte[] in = new byte[out.length];
        for (long round = 0; System.nanoTime() < end; round++) {
            MPI.COMM_WORLD.sendRecv(out, out.length, MPI.BYTE, (rank + 1) % size, 0,
                    in, in.length, MPI.BYTE, (rank + size - 1) % size, 0);
            if (round == 0 && rank == 0) {
                System.out.println("RING RUNNING");
            }
        }
        MPI.Finalize();
    }

    private RingUntilKilled() {
    }
}
