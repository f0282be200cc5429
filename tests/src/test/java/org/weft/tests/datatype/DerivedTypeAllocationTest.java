package org.weft.tests.datatype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import java.util.concurrent.atomic.AtomicLongArray;

import mpi.Datatype;
import mpi.MPI;
import mpi.Prequest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.InProcessWorld;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * Packing and unpacking a non-contiguous type allocates nothing per message in steady state: a ping-pong of a
 * vector type, with persistent requests on direct buffers (repacked at every start, unpacked at every
 * completion) and with blocking sends from Java arrays (packed into the thread's staging), measured with the
 * JVM's per-thread allocation counter as {@code p2p.SteadyStateAllocationTest} does (least of several windows,
 * after a warm-up), over shm and tcp. The array leg is received by a persistent request: a blocking
 * {@code recv} returns a new {@code Status} by API, which is not the datatype engine's garbage.
 */
@Timeout(300)
class DerivedTypeAllocationTest {
    private static final int WARM_UP = 10_000;
    private static final int MEASURED = 10_000;
    /** At most; the windows stop once both ranks had one allocating less than a byte a message. */
    private static final int WINDOWS = 20;
    private static final int BLOCKS = 16;
    private static final int INTS = 3 * BLOCKS;

    @ParameterizedTest
    @ValueSource(strings = {"self,shm,tcp", "tcp"})
    void vectorPingPongAllocatesNothingPerMessage(String methods) throws Exception {
        AtomicLongArray allocated = new AtomicLongArray(2);
        InProcessWorld.of(2).with("methods", methods).timeout(SteadyStateAllocation.TIMEOUT).run(rank -> {
            int peer = 1 - rank;
            Datatype vector = Datatype.createVector(BLOCKS, 2, 3, MPI.INT);
            vector.commit();
            IntBuffer out = MPI.newIntBuffer(INTS);
            IntBuffer in = MPI.newIntBuffer(INTS);
            int[] outArray = new int[INTS];
            IntBuffer inArrayLeg = MPI.newIntBuffer(INTS);
            Prequest send = MPI.COMM_WORLD.sendInit(out, 1, vector, peer, 1);
            Prequest recv = MPI.COMM_WORLD.recvInit(in, 1, vector, peer, 1);
            Prequest recvArrayLeg = MPI.COMM_WORLD.recvInit(inArrayLeg, 1, vector, peer, 2);
            Exchange exchange = new Exchange(rank, peer, vector, send, recv, recvArrayLeg, out, in, outArray,
                    inArrayLeg);
            allocated.set(rank, SteadyStateAllocation.leastBytes(exchange::rounds, WARM_UP, MEASURED, WINDOWS,
                    4L * MEASURED));
            send.free();
            recv.free();
            recvArrayLeg.free();
            vector.free();
        });
        for (int rank = 0; rank < 2; rank++) {
            double perMessage = allocated.get(rank) / (4.0 * MEASURED);
            assertTrue(perMessage < 1.0, "rank " + rank + " over " + methods + " allocated " + allocated.get(rank)
                    + " bytes in " + 4 * MEASURED + " messages (" + perMessage + " per message), in the best of at most "
                    + WINDOWS + " windows");
        }
    }

    /** One round: a persistent ping-pong and an array one; the data changes every round and is checked. */
    private record Exchange(int rank, int peer, Datatype vector, Prequest send, Prequest recv,
                            Prequest recvArrayLeg, IntBuffer out, IntBuffer in, int[] outArray,
                            IntBuffer inArrayLeg) {
        void rounds(int rounds) throws Exception {
            for (int i = 0; i < rounds; i++) {
                out.put(0, i);
                outArray[3] = i;
                if (rank == 0) {
                    pingPong(send, recv);
                    MPI.COMM_WORLD.send(outArray, 1, vector, peer, 2);
                    await(recvArrayLeg);
                } else {
                    await(recv);
                    await(send);
                    await(recvArrayLeg);
                    MPI.COMM_WORLD.send(outArray, 1, vector, peer, 2);
                }
                if (in.get(0) != i || inArrayLeg.get(3) != i) {
                    assertEquals(i, in.get(0), "round " + i + ", persistent leg");
                    assertEquals(i, inArrayLeg.get(3), "round " + i + ", array leg");
                }
            }
        }

        private static void pingPong(Prequest first, Prequest second) throws Exception {
            second.start();
            first.start();
            first.waitFor();
            second.waitFor();
        }

        private static void await(Prequest request) throws Exception {
            request.start();
            request.waitFor();
        }
    }
}
