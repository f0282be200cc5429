package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.Request;

/**
 * Traffic of every kind that Weft's Flight Recorder events describe, between ranks 0 and 1 (others only join the
 * collectives): {@value #BURST} eager messages of {@value #EAGER} bytes that rank 0 sends at once while rank 1 is
 * not yet receiving (they fill the shm ring: a back-pressure wait), one rendezvous of {@value #LARGE} bytes, then an
 * {@code MPI_Bcast} and an {@code MPI_Allreduce}. Prints {@code JFRTRAFFIC OK} on rank 0.
 */
public final class JfrTraffic {
    public static final int BURST = 200;
    public static final int EAGER = 8 * 1024;
    public static final int LARGE = 1 << 20;
    public static final int TAG = 7;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer small = MPI.newByteBuffer(EAGER * BURST);
        ByteBuffer large = MPI.newByteBuffer(LARGE);
        if (rank == 0) {
            Request[] sends = new Request[BURST];
            for (int i = 0; i < BURST; i++) {
                sends[i] = MPI.COMM_WORLD.iSend(small.slice(i * EAGER, EAGER), EAGER, MPI.BYTE, 1, TAG);
            }
            Request.waitAll(sends);
            MPI.COMM_WORLD.send(large, LARGE, MPI.BYTE, 1, TAG);
        } else if (rank == 1) {
            Thread.sleep(300); // rank 0's burst fills the ring meanwhile
            for (int i = 0; i < BURST; i++) {
                MPI.COMM_WORLD.recv(small.slice(i * EAGER, EAGER), EAGER, MPI.BYTE, 0, TAG);
            }
            MPI.COMM_WORLD.recv(large, LARGE, MPI.BYTE, 0, TAG);
        }
        int[] value = {rank};
        MPI.COMM_WORLD.bcast(value, 1, MPI.INT, 0);
        MPI.COMM_WORLD.allReduce(value, 1, MPI.INT, MPI.SUM);
        if (rank == 0) {
            System.out.println("JFRTRAFFIC OK");
        }
        MPI.Finalize();
    }

    private JfrTraffic() {
    }
}
