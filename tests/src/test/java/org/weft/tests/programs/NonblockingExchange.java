package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.Request;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * Ranks 0 and 1 exchange a preallocated 64-byte buffer by {@code iRecv}, {@code iSend} and {@code waitAll}, round
 * after round, as a halo exchange does; each rank prints what its thread allocates in steady state
 * ({@link SteadyStateAllocation#print}), its best window.
 */
public final class NonblockingExchange {
    /** The API's request objects, one per operation (24 bytes with compressed pointers), and some slack. */
    public static final int BYTES_PER_MESSAGE_BOUND = 40;
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;
    /** At most; the windows stop once both ranks had one below the bound. */
    private static final int WINDOWS = 30;

    private NonblockingExchange() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int peer = 1 - rank;
        ByteBuffer out = MPI.newByteBuffer(64);
        ByteBuffer in = MPI.newByteBuffer(64);
        Request[] requests = new Request[2];
        long bytes = SteadyStateAllocation.leastBytes(rounds -> {
            for (int i = 0; i < rounds; i++) {
                requests[0] = MPI.COMM_WORLD.iRecv(in, 64, MPI.BYTE, peer, 1);
                requests[1] = MPI.COMM_WORLD.iSend(out, 64, MPI.BYTE, peer, 1);
                Request.waitAll(requests);
            }
        }, WARM_UP, MEASURED, WINDOWS, BYTES_PER_MESSAGE_BOUND * 2L * MEASURED);
        SteadyStateAllocation.print(rank, bytes, 2 * MEASURED);
        MPI.Finalize();
    }
}
