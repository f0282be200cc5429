package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.IntBuffer;

/**
 * Many ranks on few cores: a token ring ({@code rounds} times around), a barrier loop and an all-pairs exchange
 * (every rank sends 1000 ints to every other with nonblocking calls). Livelock or a waiter that starves the rank it
 * waits for shows up as a job that never ends. Prints {@code OVERSUBSCRIBED OK ring=.. barriers=.. allpairs=..}
 * with the seconds each phase took.
 */
public final class Oversubscribed {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;

        double t0 = MPI.wtime();
        int[] token = {0};
        for (int round = 0; round < rounds; round++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(token, 1, MPI.INT, 1 % size, 0);
                MPI.COMM_WORLD.recv(token, 1, MPI.INT, size - 1, 0);
            } else {
                MPI.COMM_WORLD.recv(token, 1, MPI.INT, rank - 1, 0);
                token[0]++;
                MPI.COMM_WORLD.send(token, 1, MPI.INT, (rank + 1) % size, 0);
            }
        }
        double t1 = MPI.wtime();
        for (int i = 0; i < 100; i++) {
            MPI.COMM_WORLD.barrier();
        }
        double t2 = MPI.wtime();
        IntBuffer[] in = new IntBuffer[size];
        IntBuffer out = MPI.newIntBuffer(1000);
        for (int i = 0; i < 1000; i++) {
            out.put(i, rank * 1000 + i);
        }
        Request[] requests = new Request[2 * size];
        for (int peer = 0; peer < size; peer++) {
            in[peer] = MPI.newIntBuffer(1000);
            requests[peer] = MPI.COMM_WORLD.iRecv(in[peer], 1000, MPI.INT, peer, 3);
        }
        for (int peer = 0; peer < size; peer++) {
            requests[size + peer] = MPI.COMM_WORLD.iSend(out, 1000, MPI.INT, peer, 3);
        }
        Request.waitAll(requests);
        for (int peer = 0; peer < size; peer++) {
            if (in[peer].get(999) != peer * 1000 + 999) {
                throw new IllegalStateException("all-pairs: wrong data from " + peer);
            }
        }
        MPI.COMM_WORLD.barrier();
        double t3 = MPI.wtime();
        if (rank == 0) {
            if (token[0] != rounds * (size - 1)) {
                throw new IllegalStateException("ring: token " + token[0]);
            }
            System.out.printf("OVERSUBSCRIBED OK ring=%.3f barriers=%.3f allpairs=%.3f%n", t1 - t0, t2 - t1, t3 - t2);
        }
        MPI.Finalize();
    }

    private Oversubscribed() {
    }
}
