package org.weft.launcher.aot;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * What a rank JVM of a typical job does, briefly, run by {@code bin/weft-aot-train} as a three-rank job whose rank 0
 * records the ranks' AOT cache: {@code MPI_Init}, the world's queries, blocking and non-blocking ping-pongs from 0
 * bytes to 4 MiB (eager and rendezvous, arrays and direct buffers) between rank 0 and each other rank, the common
 * collectives, a split communicator, {@code MPI_Finalize}. In the training job rank 2 names another host as its own
 * (it runs on this one), so rank 0 reaches rank 1 over shared memory and rank 2 over tcp: the cache then holds
 * the classes of both paths loaded and linked (Netty's too) and the profiles of their methods, so the JIT compiles
 * the message path of a fresh job early and well, whichever of the two it takes.
 */
public final class AotTraining {
    private static final int[] SIZES = {0, 8, 1024, 64 << 10, 1 << 20, 4 << 20};
    private static final int TAG = 7;

    private AotTraining() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        MPI.getProcessorName();
        for (int peer = 1; peer < world.getSize(); peer++) {
            if (rank == 0 || rank == peer) {
                pingPongs(world, rank, rank == 0 ? peer : 0);
            }
        }
        collectives(world);
        Intracomm half = world.split(rank % 2, rank);
        collectives(half);
        half.free();
        MPI.Finalize();
    }

    /** Every size, as arrays and direct buffers, blocking and non-blocking, between {@code rank} and {@code peer}. */
    private static void pingPongs(Comm comm, int rank, int peer) throws MPIException {
        for (int size : SIZES) {
            int rounds = size >= 1 << 20 ? 10 : 500;
            pingPong(comm, rank, peer, new byte[size], rounds);
            pingPong(comm, rank, peer, MPI.newByteBuffer(size), rounds);
            exchange(comm, peer, size, rounds / 4);
        }
    }

    private static void pingPong(Comm comm, int rank, int peer, Object buffer, int rounds) throws MPIException {
        int count = buffer instanceof byte[] array ? array.length : ((ByteBuffer) buffer).capacity();
        for (int i = 0; i < rounds; i++) {
            if (rank < peer) {
                comm.send(buffer, count, MPI.BYTE, peer, TAG);
                comm.recv(buffer, count, MPI.BYTE, peer, TAG);
            } else {
                comm.recv(buffer, count, MPI.BYTE, peer, TAG);
                comm.send(buffer, count, MPI.BYTE, peer, TAG);
            }
        }
    }

    private static void exchange(Comm comm, int peer, int size, int rounds) throws MPIException {
        ByteBuffer out = MPI.newByteBuffer(size);
        ByteBuffer in = MPI.newByteBuffer(size);
        for (int i = 0; i < rounds; i++) {
            Request receive = comm.iRecv(in, size, MPI.BYTE, peer, TAG);
            Request send = comm.iSend(out, size, MPI.BYTE, peer, TAG);
            Request.waitAll(new Request[] {receive, send});
        }
        byte[] back = new byte[size];
        comm.sendRecv(new byte[size], size, MPI.BYTE, peer, TAG, back, size, MPI.BYTE, peer, TAG);
    }

    private static void collectives(Intracomm comm) throws MPIException {
        int n = comm.getSize();
        for (int i = 0; i < 50; i++) {
            comm.barrier();
            int[] one = {i};
            comm.bcast(one, 1, MPI.INT, 0);
            double[] sum = {i};
            comm.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
            comm.reduce(sum, 1, MPI.DOUBLE, MPI.MAX, 0);
            int[] all = new int[n];
            comm.allGather(one, 1, MPI.INT, all, 1, MPI.INT);
            comm.gather(one, 1, MPI.INT, all, 1, MPI.INT, 0);
            comm.scatter(all, 1, MPI.INT, one, 1, MPI.INT, 0);
            comm.allToAll(all, 1, MPI.INT, new int[n], 1, MPI.INT);
        }
    }
}
