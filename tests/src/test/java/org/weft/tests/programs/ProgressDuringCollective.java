package org.weft.tests.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Comm;
import mpi.Info;
import mpi.MPI;
import mpi.Request;
import mpi.Win;

/**
 * Correct programs that need a rank's progress while a collective waits for another rank, which first needs that
 * progress: under Open MPI and MPICH (whose collectives run their progress engines) they end; a collective that
 * stops the rank's progress while it waits hangs them. Each case twice: the communicator's first collective (which
 * may set things up for it) and a later one. Prints {@code PROGRESS OK rank R sum S} ({@code S}: the last allreduce's
 * sum of rank + 1 over the communicator).
 *
 * <p>Cases (the second argument, comma-separated; {@code send} by default):
 * <ul>
 *   <li>{@code send}: rank 0 starts a large send to rank 1, joins an allreduce and only then waits for the send; rank
 *       1 receives the message before it joins.</li>
 *   <li>{@code recv}: rank 0 posts a large receive from rank 1, joins an allreduce, then waits for it; rank 1 sends
 *       the message (which waits for rank 0's answer) before it joins.</li>
 *   <li>{@code window}: every rank exposes a window; rank 1 locks rank 0's, puts and unlocks (rank 0's window service
 *       answers) before it joins an allreduce; rank 0 joins at once.</li>
 *   <li>{@code bystander} (3 ranks): ranks 0 and 1 allreduce on a communicator of their own; rank 0 starts a large send
 *       to rank 2 first and waits for it after; rank 2 receives it and only then sends rank 1 the word rank 1 waits
 *       for before it joins — a rank outside the communicator needs rank 0's progress.</li>
 * </ul>
 */
public final class ProgressDuringCollective {
    private ProgressDuringCollective() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int bytes = Integer.parseInt(args[0]);
        String cases = args.length > 1 ? args[1] : "send";
        ByteBuffer message = MPI.newByteBuffer(bytes);
        int[] value = new int[1];
        for (String c : cases.split(",")) {
            switch (c) {
                case "send" -> exchange(rank, message, bytes, value, false);
                case "recv" -> exchange(rank, message, bytes, value, true);
                case "window" -> window(rank, value);
                case "bystander" -> bystander(rank, message, bytes, value);
                default -> throw new IllegalArgumentException("no case " + c);
            }
        }
        System.out.println("PROGRESS OK rank " + rank + " sum " + value[0]);
        MPI.Finalize();
    }

    /**
     * {@code send} ({@code rank0Receives} false) or {@code recv}: rank 0 starts its side of a large message with rank
     * 1, joins an allreduce and only then waits; rank 1 does its side, blocking, before it joins.
     */
    private static void exchange(int rank, ByteBuffer message, int bytes, int[] value, boolean rank0Receives)
            throws Exception {
        int tag = rank0Receives ? 8 : 7;
        for (int round = 0; round < 2; round++) {
            value[0] = rank + 1;
            if (rank == 0) {
                Request started = rank0Receives ? MPI.COMM_WORLD.iRecv(message, bytes, MPI.BYTE, 1, tag)
                        : MPI.COMM_WORLD.iSend(message, bytes, MPI.BYTE, 1, tag);
                MPI.COMM_WORLD.allReduce(value, 1, MPI.INT, MPI.SUM);
                started.waitFor();
                continue;
            }
            if (rank == 1 && rank0Receives) {
                MPI.COMM_WORLD.send(message, bytes, MPI.BYTE, 0, tag);
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(message, bytes, MPI.BYTE, 0, tag);
            }
            MPI.COMM_WORLD.allReduce(value, 1, MPI.INT, MPI.SUM);
        }
    }

    private static void window(int rank, int[] value) throws Exception {
        ByteBuffer exposed = ByteBuffer.allocateDirect(Integer.BYTES).order(ByteOrder.nativeOrder());
        Win win = new Win(exposed, Integer.BYTES, 1, new Info(), MPI.COMM_WORLD);
        ByteBuffer word = ByteBuffer.allocateDirect(Integer.BYTES).order(ByteOrder.nativeOrder());
        for (int round = 0; round < 2; round++) {
            value[0] = rank + 1;
            if (rank == 1) {
                word.putInt(0, 100 + round);
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                win.put(word, Integer.BYTES, MPI.BYTE, 0, 0, Integer.BYTES, MPI.BYTE);
                win.unlock(0);
            }
            MPI.COMM_WORLD.allReduce(value, 1, MPI.INT, MPI.SUM);
            MPI.COMM_WORLD.barrier();
            if (rank == 0 && exposed.getInt(0) != 100 + round) {
                throw new AssertionError("rank 1's put of round " + round + " gave " + exposed.getInt(0));
            }
        }
        win.free();
    }

    private static void bystander(int rank, ByteBuffer message, int bytes, int[] value) throws Exception {
        Comm pair = MPI.COMM_WORLD.split(rank < 2 ? 0 : 1, rank);
        int[] word = new int[1];
        for (int round = 0; round < 2; round++) {
            value[0] = rank + 1;
            if (rank == 0) {
                Request send = MPI.COMM_WORLD.iSend(message, bytes, MPI.BYTE, 2, 9);
                pair.allReduce(value, 1, MPI.INT, MPI.SUM);
                send.waitFor();
            } else if (rank == 1) {
                MPI.COMM_WORLD.recv(word, 1, MPI.INT, 2, 10);
                pair.allReduce(value, 1, MPI.INT, MPI.SUM);
            } else if (rank == 2) {
                MPI.COMM_WORLD.recv(message, bytes, MPI.BYTE, 0, 9);
                MPI.COMM_WORLD.send(word, 1, MPI.INT, 1, 10);
                value[0] = 3; // not a member: prints the pair's sum
            }
        }
        pair.free();
    }
}
