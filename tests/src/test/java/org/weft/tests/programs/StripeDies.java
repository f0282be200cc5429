package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Rank 0 sends 4 MiB and then {@code MiB} MiB (default 256) to rank 1, which takes the first, starts its receive, takes a note rank 0 sends after
 * it (so the large message has matched and its data is flowing) and then sleeps {@code seconds} (default 30)
 * without calling MPI before it waits: the message's streams fill their socket buffers meanwhile, so a
 * test can find them (the only connections of the job with bytes waiting) and kill one. The second argument is a
 * marker the test finds the rank processes by. Prints {@code DELIVERED} if the message came whole.
 */
public final class StripeDies {
    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int size = Integer.parseInt(args.length > 0 ? args[0] : "256") << 20;
        long sleepMillis = 1000L * Integer.parseInt(args.length > 2 ? args[2] : "30");
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer buffer = MPI.newByteBuffer(size);
        ByteBuffer note = MPI.newByteBuffer(1);
        // a first message opens the streams (and finishes their handshakes, which need the receiver polling)
        int first = Math.min(size, 4 << 20);
        if (rank == 0) {
            MPI.COMM_WORLD.send(buffer, first, MPI.BYTE, 1, 2);
        } else if (rank == 1) {
            MPI.COMM_WORLD.recv(buffer, first, MPI.BYTE, 0, 2);
        }
        if (rank == 0) {
            Request send = MPI.COMM_WORLD.iSend(buffer, size, MPI.BYTE, 1, 0);
            MPI.COMM_WORLD.send(note, 1, MPI.BYTE, 1, 1); // behind the request to send, on the same connection
            send.waitFor();
        } else if (rank == 1) {
            Request receive = MPI.COMM_WORLD.iRecv(buffer, size, MPI.BYTE, 0, 0);
            // the request to send came before this note: the receive has matched and cleared the sender
            MPI.COMM_WORLD.recv(note, 1, MPI.BYTE, 0, 1);
            Thread.sleep(sleepMillis);
            receive.waitFor();
            System.out.println("DELIVERED");
        }
        MPI.Finalize();
    }
}
