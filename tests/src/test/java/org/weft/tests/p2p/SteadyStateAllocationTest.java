package org.weft.tests.p2p;

import mpi.MPI;
import mpi.Prequest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.InProcessWorld;
import org.weft.tests.harness.SteadyStateAllocation;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hot paths allocate nothing per message in steady state (DESIGN.md): a persistent send/receive ping-pong of a
 * preallocated buffer, after a warm-up, allocates on neither rank's thread — measured with the JVM's per-thread
 * allocation counter ({@link SteadyStateAllocation}: the least of several windows after a warm-up). Two ranks in
 * this JVM, over shm (default methods) and over tcp.
 */
@Timeout(120)
class SteadyStateAllocationTest {
    private static final int WARM_UP = 50_000;
    private static final int MEASURED = 20_000;
    private static final int WINDOWS = 5;

    @ParameterizedTest
    @ValueSource(strings = {"self,shm,tcp", "tcp"})
    void persistentPingPongAllocatesNothingPerMessage(String methods) throws Exception {
        AtomicLongArray allocated = new AtomicLongArray(2);
        InProcessWorld.of(2).with("methods", methods).run(rank -> {
            int peer = 1 - rank;
            ByteBuffer out = MPI.newByteBuffer(64);
            ByteBuffer in = MPI.newByteBuffer(64);
            Prequest send = MPI.COMM_WORLD.sendInit(out, 64, MPI.BYTE, peer, 1);
            Prequest recv = MPI.COMM_WORLD.recvInit(in, 64, MPI.BYTE, peer, 1);
            allocated.set(rank, SteadyStateAllocation.leastBytes(rounds -> pingPong(rank, send, recv, rounds),
                    WARM_UP, MEASURED, WINDOWS));
            send.free();
            recv.free();
        });
        for (int rank = 0; rank < 2; rank++) {
            double perMessage = allocated.get(rank) / (2.0 * MEASURED);
            assertTrue(perMessage < 1.0, "rank " + rank + " over " + methods + " allocated " + allocated.get(rank)
                    + " bytes in " + 2 * MEASURED + " messages (" + perMessage + " per message), in the best of "
                    + WINDOWS + " windows");
        }
    }

    private static void pingPong(int rank, Prequest send, Prequest recv, int rounds) throws Exception {
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
