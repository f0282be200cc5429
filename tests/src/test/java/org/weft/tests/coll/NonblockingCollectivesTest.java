package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import java.time.Duration;
import java.util.stream.IntStream;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * The nonblocking collectives: several outstanding at once on one communicator with point-to-point traffic in
 * between, completed in different orders on different ranks (a rank waiting for one must still move the other
 * on, as its peers may wait for that one first), through {@code waitFor}, {@code test} loops, {@code waitAll}
 * and {@code waitAny}; and each {@code i} form once with its result checked.
 */
@Timeout(120)
class NonblockingCollectivesTest {
    @ParameterizedTest(name = "{0} ranks, methods {1}")
    @CsvSource({"1,default", "2,default", "3,tcp", "4,default", "5,default", "8,tcp"})
    void outstandingCollectivesStayApartAndProgressInAnyOrder(int size, String methods) throws Exception {
        InProcessWorld world = InProcessWorld.of(size).timeout(Duration.ofSeconds(100));
        if (!methods.equals("default")) {
            world.with("methods", methods);
        }
        world.run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            comm.setErrhandler(MPI.ERRORS_RETURN);
            for (int count : new int[] {1, 100_000}) {
                twoBroadcastsAndAnAllreduceWithTrafficBetween(comm, rank, size, count);
            }
            everyNonblockingForm(comm, rank, size, 5);
            blockingCollectivesMoveOutstandingOnesOn(comm, rank, size);
        });
    }

    /**
     * The last rank waits for an ibcast before the barrier; the others enter the barrier first. Inner ranks of the
     * broadcast must forward it from inside the barrier, or the last rank never gets to the barrier.
     */
    private static void blockingCollectivesMoveOutstandingOnesOn(Intracomm comm, int rank, int size)
            throws MPIException {
        for (int count : new int[] {3, 100_000}) {
            IntBuffer data = MPI.newIntBuffer(count);
            if (rank == 0) {
                data.put(0, EveryCollectiveTest.values(9, count));
            }
            Request bcast = comm.iBcast(data, count, MPI.INT, 0);
            if (rank == size - 1) {
                bcast.waitFor();
                comm.barrier();
            } else {
                comm.barrier();
                bcast.waitFor();
            }
            assertArrayEquals(EveryCollectiveTest.values(9, count), contents(data), "ibcast waited after a barrier");
        }
    }

    private static void twoBroadcastsAndAnAllreduceWithTrafficBetween(Intracomm comm, int rank, int size, int count)
            throws MPIException {
        IntBuffer first = MPI.newIntBuffer(count);
        IntBuffer second = MPI.newIntBuffer(count);
        if (rank == 0) {
            first.put(0, EveryCollectiveTest.values(100, count));
        }
        if (rank == size - 1) {
            second.put(0, EveryCollectiveTest.values(200, count));
        }
        IntBuffer sum = MPI.newIntBuffer(count);
        sum.put(0, EveryCollectiveTest.values(rank, count));
        Request a = comm.iBcast(first, count, MPI.INT, 0);
        Request b = comm.iBcast(second, count, MPI.INT, size - 1);
        Request c = comm.iAllReduce(sum, count, MPI.INT, MPI.SUM);
        Request barrier = comm.iBarrier();
        // point-to-point around the ring while the collectives are outstanding
        int[] token = {rank};
        int[] got = new int[1];
        Status s = comm.sendRecv(token, 1, MPI.INT, (rank + 1) % size, 7, got, 1, MPI.INT,
                (rank - 1 + size) % size, 7);
        assertEquals((rank - 1 + size) % size, got[0]);
        assertEquals((rank - 1 + size) % size, s.getSource());
        switch (rank % 3) {
            case 0 -> {
                c.waitFor();
                b.waitFor();
                while (!a.test()) {
                    Thread.onSpinWait();
                }
                barrier.waitFor();
            }
            case 1 -> Request.waitAll(new Request[] {barrier, b, a, c});
            default -> {
                Request[] all = {c, barrier, a, b};
                for (int done = 0; done < all.length; done++) {
                    int index = Request.waitAny(all);
                    assertTrue(index >= 0 && all[index].isNull(), "waitAny gave " + index);
                }
                assertEquals(MPI.UNDEFINED, Request.waitAny(all));
            }
        }
        assertTrue(a.isNull() && b.isNull() && c.isNull() && barrier.isNull());
        assertArrayEquals(EveryCollectiveTest.values(100, count), contents(first), "first ibcast");
        assertArrayEquals(EveryCollectiveTest.values(200, count), contents(second), "second ibcast");
        int[] expected = new int[count];
        for (int r = 0; r < size; r++) {
            int[] v = EveryCollectiveTest.values(r, count);
            for (int i = 0; i < count; i++) {
                expected[i] += v[i];
            }
        }
        assertArrayEquals(expected, contents(sum), "iallreduce of " + count);
    }

    private static void everyNonblockingForm(Intracomm comm, int rank, int size, int count) throws MPIException {
        int root = size / 2;
        IntBuffer mine = buffer(EveryCollectiveTest.values(rank, count));
        int[] gatheredValues = IntStream.range(0, size)
                .flatMap(r -> IntStream.of(EveryCollectiveTest.values(r, count))).toArray();
        IntBuffer gathered = MPI.newIntBuffer(size * count);
        comm.iGather(mine, count, MPI.INT, gathered, count, MPI.INT, root).waitFor();
        if (rank == root) {
            assertArrayEquals(gatheredValues, contents(gathered), "igather");
        }
        IntBuffer all = MPI.newIntBuffer(size * count);
        comm.iAllGather(mine, count, MPI.INT, all, count, MPI.INT).waitFor();
        assertArrayEquals(gatheredValues, contents(all), "iallgather");
        IntBuffer scattered = MPI.newIntBuffer(count);
        comm.iScatter(all, count, MPI.INT, scattered, count, MPI.INT, root).waitFor();
        assertArrayEquals(EveryCollectiveTest.values(rank, count), contents(scattered), "iscatter");
        IntBuffer exchanged = MPI.newIntBuffer(size * count);
        IntBuffer outgoing = MPI.newIntBuffer(size * count);
        for (int j = 0; j < size; j++) {
            outgoing.put(j * count, EveryCollectiveTest.exchanged(rank, j, count));
        }
        comm.iAllToAll(outgoing, count, MPI.INT, exchanged, count, MPI.INT).waitFor();
        for (int j = 0; j < size; j++) {
            int[] block = new int[count];
            exchanged.get(j * count, block);
            assertArrayEquals(EveryCollectiveTest.exchanged(j, rank, count), block, "ialltoall from " + j);
        }
        IntBuffer reduced = MPI.newIntBuffer(count);
        comm.iReduce(mine, reduced, count, MPI.INT, MPI.MAX, root).waitFor();
        if (rank == root) {
            assertArrayEquals(EveryCollectiveTest.values(size - 1, count), contents(reduced), "ireduce MAX");
        }
        Op affine = new Op(new AffineComposition(), false);
        int even = count & ~1;
        IntBuffer composed = MPI.newIntBuffer(even);
        comm.iScan(buffer(AffineComposition.contribution(rank, even)), composed, even, MPI.INT, affine).waitFor();
        assertArrayEquals(AffineComposition.expected(rank + 1, even), contents(composed), "iscan, user op");
        IntBuffer block = MPI.newIntBuffer(count);
        comm.iReduceScatterBlock(all, block, count, MPI.INT, MPI.SUM).waitFor();
        int[] expected = EveryCollectiveTest.values(rank, count);
        for (int i = 0; i < count; i++) {
            expected[i] *= size;
        }
        assertArrayEquals(expected, contents(block), "ireduce_scatter_block");
    }

    static IntBuffer buffer(int[] values) {
        IntBuffer b = MPI.newIntBuffer(Math.max(values.length, 1));
        b.put(0, values);
        return b;
    }

    static int[] contents(IntBuffer b) {
        int[] v = new int[b.capacity()];
        b.get(0, v);
        return v;
    }
}
