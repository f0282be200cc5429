package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * A persistent send/receive ping-pong of a preallocated 64-byte buffer between ranks 0 and 1, which measures what
 * its own thread allocates in steady state ({@link SteadyStateAllocation}). As a job, each of the two ranks prints
 * its best window ({@link SteadyStateAllocation#print}) for the test to judge; the in-JVM allocation test calls
 * {@link #leastBytes} directly.
 */
public final class PersistentPingPong {
    public static final int WARM_UP = 10_000;
    public static final int MEASURED = 20_000;
    /** At most; the windows stop once both ranks had one allocating less than a byte a message. */
    public static final int WINDOWS = 20;

    private PersistentPingPong() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program without {@code Init} and {@code Finalize} ({@link InOneJob}). */
    public static void run(String[] args) throws Exception {
        int rank = MPI.COMM_WORLD.getRank();
        long bytes = leastBytes(rank);
        SteadyStateAllocation.print(rank, bytes, 2 * MEASURED);
    }

    /** Runs the ping-pong with the other of ranks 0 and 1; returns the least bytes a measured window allocated. */
    public static long leastBytes(int rank) throws Exception {
        int peer = 1 - rank;
        ByteBuffer out = MPI.newByteBuffer(64);
        ByteBuffer in = MPI.newByteBuffer(64);
        Prequest send = MPI.COMM_WORLD.sendInit(out, 64, MPI.BYTE, peer, 1);
        Prequest recv = MPI.COMM_WORLD.recvInit(in, 64, MPI.BYTE, peer, 1);
        long least = SteadyStateAllocation.leastBytes(rounds -> pingPong(rank, send, recv, rounds), WARM_UP,
                MEASURED, WINDOWS, 2L * MEASURED);
        send.free();
        recv.free();
        return least;
    }

    private static void pingPong(int rank, Prequest send, Prequest recv, int rounds) throws MPIException {
        for (int i = 0; i < rounds; i++) {
            if (rank == 0) {
                recv.start();
                send.start();
                send.waitFor();
                recv.waitFor();
            } else {
                recv.start();
                recv.waitFor();
                send.start();
                send.waitFor();
            }
        }
    }
}
