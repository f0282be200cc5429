package org.weft.tests.programs;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Ranks 0 and 1 exchange small messages by every way a sender can wait after a nonblocking send, {@code rounds}
 * times each: a blocking receive, a blocking send that completes at once, a synchronous send, {@code waitFor} on the
 * send, a blocking probe, a barrier and an allreduce, and a receive cancelled while messages are in flight. With
 * aggregation on and a window longer than the job may take, each round finishes only if a waiting sender writes what
 * its path holds. Prints {@code WAITS OK} and the time the rounds took.
 */
public final class WaitingSenders {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int rank = MPI.COMM_WORLD.getRank();
        int peer = 1 - rank;
        int[] one = new int[1];
        int[] got = new int[1];
        IntBuffer out = MPI.newIntBuffer(1);
        IntBuffer in = MPI.newIntBuffer(1);
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            out.put(0, i);
            // a blocking receive: the isend before it must not be held while this rank waits for the answer
            Request send = MPI.COMM_WORLD.iSend(out, 1, MPI.INT, peer, 1);
            MPI.COMM_WORLD.recv(in, 1, MPI.INT, peer, 1);
            send.waitFor();
            check(in.get(0) == i, "isend/recv round " + i);
            // a blocking send (eager: completes at once) then a receive
            one[0] = i;
            if (rank == 0) {
                MPI.COMM_WORLD.send(one, 1, MPI.INT, peer, 2);
                MPI.COMM_WORLD.recv(got, 1, MPI.INT, peer, 2);
            } else {
                MPI.COMM_WORLD.recv(got, 1, MPI.INT, peer, 2);
                MPI.COMM_WORLD.send(one, 1, MPI.INT, peer, 2);
            }
            check(got[0] == i, "send/recv round " + i);
            // a synchronous send: its acknowledgement travels back while the sender waits
            if (rank == 0) {
                MPI.COMM_WORLD.sSend(one, 1, MPI.INT, peer, 3);
            } else {
                MPI.COMM_WORLD.recv(got, 1, MPI.INT, peer, 3);
            }
            // waitFor on the send alone, then a blocking probe for the peer's message
            Request alone = MPI.COMM_WORLD.iSend(out, 1, MPI.INT, peer, 4);
            alone.waitFor();
            Status probed = MPI.COMM_WORLD.probe(peer, 4);
            check(probed.getCount(MPI.INT) == 1, "probe round " + i);
            MPI.COMM_WORLD.recv(got, 1, MPI.INT, peer, 4);
            // collectives, with a send held before them
            Request before = MPI.COMM_WORLD.iSend(out, 1, MPI.INT, peer, 5);
            MPI.COMM_WORLD.barrier();
            double[] sum = {rank + 1};
            MPI.COMM_WORLD.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
            check(sum[0] == 3, "allreduce round " + i);
            MPI.COMM_WORLD.recv(got, 1, MPI.INT, peer, 5);
            before.waitFor();
            // a receive cancelled while the peer's sends may be held
            Request never = MPI.COMM_WORLD.iRecv(in, 1, MPI.INT, peer, 99);
            never.cancel();
            check(never.waitStatus().isCancelled(), "cancel round " + i);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("WAITS OK rank " + rank + " " + rounds + " rounds in " + millis + " ms");
        MPI.Finalize();
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("waiting senders broken: " + what);
        }
    }
}
