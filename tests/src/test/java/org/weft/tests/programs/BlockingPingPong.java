package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * A blocking {@code send}/{@code recv} ping-pong of a preallocated 64-byte buffer between ranks 0 and 1, the program
 * dropping each receive's {@code Status}, as most do; with the argument {@code sendRecv} rank 0 sends and receives
 * by one {@code sendRecv}; with {@code burst} rank 0 sends {@value #BURST} messages of tags 0, 1, ... and rank 1
 * receives them last tag first, so that all but one wait as unexpected messages, then answers; with {@code self}
 * each rank sends to itself and receives that (the self method; the message waits as unexpected). Each rank prints
 * what its thread allocates in steady state ({@link SteadyStateAllocation#print}), its best window.
 */
public final class BlockingPingPong {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;
    /**
     * At most (they stop once both ranks had one allocating less than a byte a message), more than the persistent
     * ping-pong's: here nothing is allocated only once the JIT has compiled the loop with {@code recv} inlined,
     * which on a loaded machine (CI) was seen to land within the fifth window of 20 000 rounds after 100 000.
     */
    private static final int WINDOWS = 40;
    private static final int BURST = 16;

    private BlockingPingPong() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer buffer = MPI.newByteBuffer(64);
        ByteBuffer other = MPI.newByteBuffer(64);
        String mode = args.length > 0 ? args[0] : "recv";
        // a round to oneself takes a tenth of a ping-pong's: ten times the rounds, or the JIT has not compiled the
        // loop (and dropped its Status objects) before the last window; a burst's round is BURST + 1 messages, a
        // ping-pong's 2: a quarter of the rounds (still four times the messages), or a window takes minutes at load 30
        int scale = switch (mode) {
            case "self" -> 40;
            case "burst" -> 1;
            default -> 4;
        };
        int messages = (mode.equals("burst") ? BURST + 1 : 2) * scale * MEASURED / 4;
        long bytes = SteadyStateAllocation.leastBytes(rounds -> {
            switch (mode) {
                case "sendRecv" -> pingPongBySendRecv(rank, buffer, other, rounds);
                case "burst" -> burst(rank, buffer, rounds);
                case "self" -> toSelf(rank, buffer, rounds);
                default -> pingPong(rank, buffer, rounds);
            }
        }, scale * WARM_UP / 4, scale * MEASURED / 4, WINDOWS, messages);
        SteadyStateAllocation.print(rank, bytes, messages);
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

    private static void pingPongBySendRecv(int rank, ByteBuffer out, ByteBuffer in, int rounds)
            throws MPIException {
        for (int i = 0; i < rounds; i++) {
            if (rank == 0) {
                MPI.COMM_WORLD.sendRecv(out, 64, MPI.BYTE, 1, 1, in, 64, MPI.BYTE, 1, 1);
            } else {
                MPI.COMM_WORLD.recv(in, 64, MPI.BYTE, 0, 1);
                MPI.COMM_WORLD.send(out, 64, MPI.BYTE, 0, 1);
            }
        }
    }

    private static void toSelf(int rank, ByteBuffer buffer, int rounds) throws MPIException {
        for (int i = 0; i < rounds; i++) {
            MPI.COMM_WORLD.send(buffer, 64, MPI.BYTE, rank, 1);
            MPI.COMM_WORLD.recv(buffer, 64, MPI.BYTE, rank, 1);
        }
    }

    private static void burst(int rank, ByteBuffer buffer, int rounds) throws MPIException {
        for (int i = 0; i < rounds; i++) {
            if (rank == 0) {
                for (int tag = 0; tag < BURST; tag++) {
                    MPI.COMM_WORLD.send(buffer, 64, MPI.BYTE, 1, tag);
                }
                MPI.COMM_WORLD.recv(buffer, 0, MPI.BYTE, 1, BURST);
            } else {
                for (int tag = BURST - 1; tag >= 0; tag--) {
                    MPI.COMM_WORLD.recv(buffer, 64, MPI.BYTE, 0, tag);
                }
                MPI.COMM_WORLD.send(buffer, 0, MPI.BYTE, 0, BURST);
            }
        }
    }
}
