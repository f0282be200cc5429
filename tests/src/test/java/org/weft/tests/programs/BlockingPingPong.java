package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * A blocking {@code send}/{@code recv} ping-pong of a preallocated 64-byte buffer between ranks 0 and 1 (with
 * the argument {@code sendRecv}: rank 0 sends and receives by one {@code sendRecv}), the program dropping each
 * receive's {@code Status}, as most do. A ping-pong, not a symmetric exchange, so that every message finds its
 * receive posted: one that arrives first is kept as an unexpected message, which allocates a copy of its data.
 * Each rank prints what its thread allocates in steady state ({@link SteadyStateAllocation#print}), its best window.
 */
public final class BlockingPingPong {
    private static final int WARM_UP = 100_000;
    private static final int MEASURED = 20_000;
    /**
     * More than the persistent ping-pong's: here nothing is allocated only once the JIT has compiled the loop with
     * {@code recv} inlined, which on a loaded machine (CI) was seen to land within the fifth window.
     */
    private static final int WINDOWS = 20;

    private BlockingPingPong() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer buffer = MPI.newByteBuffer(64);
        ByteBuffer other = MPI.newByteBuffer(64);
        boolean exchange = args.length > 0 && args[0].equals("sendRecv");
        long bytes = SteadyStateAllocation.leastBytes(rounds -> {
            if (exchange) {
                exchange(rank, buffer, other, rounds);
            } else {
                pingPong(rank, buffer, rounds);
            }
        }, WARM_UP, MEASURED, WINDOWS);
        SteadyStateAllocation.print(rank, bytes, 2 * MEASURED);
        MPI.Finalize();
    }

    private static void pingPong(int rank, ByteBuffer buffer, int rounds) throws MPIException {
        int peer = 1 - rank;
        for (int i = 0; i < rounds; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.send(buffer, 64, MPI.BYTE, peer, 1);
                MPI.COMM_WORLD.recv(buffer, 64, MPI.BYTE, peer, 1);
            } else {
                MPI.COMM_WORLD.recv(buffer, 64, MPI.BYTE, peer, 1);
                MPI.COMM_WORLD.send(buffer, 64, MPI.BYTE, peer, 1);
            }
        }
    }

    private static void exchange(int rank, ByteBuffer out, ByteBuffer in, int rounds) throws MPIException {
        for (int i = 0; i < rounds; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.sendRecv(out, 64, MPI.BYTE, 1, 1, in, 64, MPI.BYTE, 1, 1);
            } else {
                MPI.COMM_WORLD.recv(in, 64, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.send(out, 64, MPI.BYTE, 0, 1);
            }
        }
    }
}
