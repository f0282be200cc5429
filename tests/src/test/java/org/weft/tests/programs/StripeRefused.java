package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Rank 0 sends {@code MiB} MiB (default 8) to rank 1 over a wide-area path whose stripes rank 1 refuses: the test
 * runs rank 0 with {@code tcp_tls=none} and rank 1 with {@code tcp_tls=cross-site}, so rank 1 closes each of rank
 * 0's plaintext stripes before it reads a byte of them. Rank 1 dials the pair's connection (its first message goes
 * to rank 0: TLS, which rank 0 accepts), so only the stripes are refused. Errors return: each rank prints what its
 * operation did ({@code SENT} or {@code SEND FAILED: why}, {@code DELIVERED} or {@code RECEIVE FAILED: why}) and
 * goes on to {@code MPI_Finalize}, so the job ends only if neither waits for ever.
 */
public final class StripeRefused {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int size = Integer.parseInt(args.length > 0 ? args[0] : "8") << 20;
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer buffer = MPI.newByteBuffer(size);
        ByteBuffer note = MPI.newByteBuffer(1);
        if (rank == 1) {
            MPI.COMM_WORLD.send(note, 1, MPI.BYTE, 0, 1);
        } else if (rank == 0) {
            MPI.COMM_WORLD.recv(note, 1, MPI.BYTE, 1, 1);
        }
        try {
            if (rank == 0) {
                MPI.COMM_WORLD.send(buffer, size, MPI.BYTE, 1, 0);
                System.out.println("SENT");
            } else if (rank == 1) {
                Request receive = MPI.COMM_WORLD.iRecv(buffer, size, MPI.BYTE, 0, 0);
                receive.waitFor();
                System.out.println("DELIVERED");
            }
        } catch (MPIException e) {
            System.out.println((rank == 0 ? "SEND" : "RECEIVE") + " FAILED: " + e.getMessage());
        }
        MPI.Finalize();
    }
}
