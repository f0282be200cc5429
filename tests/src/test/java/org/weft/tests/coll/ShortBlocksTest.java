package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.weft.tests.coll.BlockData.UNTOUCHED;
import static org.weft.tests.coll.BlockData.contents;
import static org.weft.tests.coll.BlockData.data;
import static org.weft.tests.coll.BlockData.filled;
import static org.weft.tests.coll.BlockData.repeated;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;

import mpi.CartComm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.comm.TwoGroups;
import org.weft.tests.comm.Worlds;
import org.weft.tests.harness.InProcessWorld;

/**
 * Collectives whose data is shorter than the receive block (behaviours.md item 21): every block of the receive
 * buffer takes what was sent, as a point-to-point receive does, and the rest of the block stays as it was, in
 * gather(v), scatter(v), allgather(v), alltoall(v/w), their nonblocking forms, the neighbour collectives and the
 * intercommunicator forms — for short blocks (Bruck's packed algorithms at 3 ranks and more) and long ones (ring,
 * pairwise), and for a kept schedule called again with new data. Data longer than the receive block is still
 * {@code ERR_TRUNCATE}, and the message names the sizes the right way round. At 1–5 and 8 ranks, default methods
 * and tcp.
 */
@Timeout(120)
class ShortBlocksTest {
    /** Items a receive block holds beyond what is sent into it. */
    private static final int SPARE = 2;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void shortDataFillsTheStartOfEachReceiveBlock(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            comm.setErrhandler(MPI.ERRORS_RETURN);
            Rank r = new Rank(comm, rank, size);
            for (int root : IntStream.of(0, size / 2, size - 1).distinct().toArray()) {
                r.gatherAndGatherv(root);
                r.scatterAndScatterv(root);
            }
            for (int count : new int[] {1, 3, 20_000}) { // Bruck below 64 KiB in all (from 3 ranks), ring above
                r.allGather(count);
                r.allGatherv(count);
            }
            for (int count : new int[] {1, 3, 100}) { // Bruck up to 256-byte blocks (from 3 ranks), pairwise above
                r.allToAll(count);
            }
            r.allToAllvAndW();
            r.nonblocking();
            r.neighbours();
        });
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#twoGroupSizesAndMethods")
    void intercommunicatorBlocksTakeShortData(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            TwoGroups groups = TwoGroups.of(size, rank);
            Intercomm inter = groups.inter();
            int[] remote = groups.remoteWorld();
            int local = inter.getRank();
            int[] counts = IntStream.range(0, remote.length).map(j -> sent(j) + SPARE).toArray();
            int[] displs = besideEachOther(counts);
            // the low group's rank 0 is the root of a gatherv and a scatterv to and from the high group
            int gatherRoot = groups.low() ? (local == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
            int[] gathered = filled(sum(counts));
            inter.gatherv(data(rank, sent(local)), sent(local), MPI.INT, gathered, counts, displs, MPI.INT,
                    gatherRoot);
            if (gatherRoot == MPI.ROOT) {
                assertArrayEquals(placed(remote, counts, displs, gathered.length), gathered, "inter gatherv");
            }
            int[] scattered = filled(sent(local) + SPARE);
            int[] toScatter = groups.low() && local == 0 ? blocksFor(rank, sentCounts(remote.length), displs) : null;
            inter.scatterv(toScatter, sentCounts(remote.length), displs, MPI.INT, scattered, sent(local) + SPARE,
                    MPI.INT, gatherRoot);
            if (!groups.low()) {
                assertArrayEquals(withData(filled(sent(local) + SPARE), 0, data(100 + remote[0], sent(local))),
                        scattered, "inter scatterv");
            }
            int[] all = filled(sum(counts));
            inter.allGatherv(data(rank, sent(local)), sent(local), MPI.INT, all, counts, displs, MPI.INT);
            assertArrayEquals(placed(remote, counts, displs, all.length), all, "inter allgatherv");
            int[] exchanged = filled(sum(counts));
            inter.allToAllv(blocksFor(rank, sentCounts(remote.length), displs), sentCounts(remote.length), displs,
                    MPI.INT, exchanged, counts, displs, MPI.INT);
            int[] expected = filled(exchanged.length);
            for (int j = 0; j < remote.length; j++) {
                withData(expected, displs[j], data(100 + remote[j], sent(local)));
            }
            assertArrayEquals(expected, exchanged, "inter alltoallv");
            groups.free();
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @MethodSource("sizes")
    void dataLongerThanTheReceiveBlockIsStillTruncate(int size) throws Exception {
        InProcessWorld.of(size).run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            comm.setErrhandler(MPI.ERRORS_RETURN);
            int[] threes = repeated(3, size);
            // scatterv: the others receive 3 items into room for 2 (the root's own block fits)
            int[] send = rank == 0 ? new int[3 * size] : null;
            int room = rank == 0 ? 3 : 2;
            Call scatterv = () -> comm.scatterv(send, threes, null, MPI.INT, new int[room], room, MPI.INT, 0);
            // gather: the others send 3 items to blocks of 2 at the root (whose own 2 fit)
            int sent = rank == 0 ? 2 : 3;
            Call gather = () -> comm.gather(new int[sent], sent, MPI.INT, new int[2 * size], 2, MPI.INT, 0);
            if (rank == 0) {
                scatterv.run();
                if (size > 1) {
                    assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class, gather::run).getErrorClass());
                }
            } else {
                assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class, scatterv::run).getErrorClass());
                gather.run();
            }
            int[] sum = {rank};
            comm.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(size * (size - 1) / 2, sum[0], "the communicator still works");
        });
    }

    /**
     * The root's own block too long for its receive block is {@code ERR_TRUNCATE} at the root, raised once the call
     * has run to its end, so the other ranks get their blocks and nobody waits (it was raised before anything was
     * sent: the scatter's other ranks, and the large gather's senders, waited for ever). Over the schedules
     * ({@code coll_shm=0}); the shared segment raises it at the end too.
     */
    @Test
    void theRootsOwnTooLongBlockIsTruncateWithTheSizesTheRightWayRound() throws Exception {
        int size = 3;
        InProcessWorld.of(size).with("coll_shm", "0").run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            comm.setErrhandler(MPI.ERRORS_RETURN);
            // 4 items (16 bytes) to send to each, room for 3 (12 bytes) at the root, 4 at the others
            int[] send = rank == 0 ? data(0, 4 * size) : null;
            int[] recv = filled(4);
            Call scatterv = () -> comm.scatterv(send, repeated(4, size), null, MPI.INT, recv, rank == 0 ? 3 : 4,
                    MPI.INT, 0);
            // large blocks (over the eager limit): the root sends itself one item more than its block holds
            int items = 40_000;
            int[] mine = data(rank, rank == 0 ? items + 1 : items);
            int[] all = filled(size * items);
            Call gather = () -> comm.gather(mine, mine.length, MPI.INT, all, items, MPI.INT, 0);
            // the nonblocking form's wait names the sizes too (it said "longer than the receive buffer (0 bytes)")
            IntBuffer sendBuffer = MPI.newIntBuffer(4 * size);
            Call iScatter = () -> comm.iScatter(sendBuffer, 4, MPI.INT, MPI.newIntBuffer(4), rank == 0 ? 3 : 4,
                    MPI.INT, 0).waitFor();
            if (rank == 0) {
                MPIException waited = assertThrows(MPIException.class, iScatter::run);
                assertTrue(waited.getMessage().contains("16 bytes sent into a receive block of 12 bytes"),
                        waited.getMessage());
            } else {
                iScatter.run();
            }
            if (rank == 0) {
                MPIException scattered = assertThrows(MPIException.class, scatterv::run);
                assertEquals(MPI.ERR_TRUNCATE, scattered.getErrorClass());
                assertTrue(scattered.getMessage().contains("16 bytes sent into a receive block of 12 bytes"),
                        scattered.getMessage());
                MPIException gathered = assertThrows(MPIException.class, gather::run);
                assertTrue(gathered.getMessage().contains((4 * items + 4) + " bytes sent into a receive block of "
                        + 4 * items + " bytes"), gathered.getMessage());
                assertArrayEquals(data(1, items), Arrays.copyOfRange(all, items, 2 * items), "rank 1's block");
            } else {
                scatterv.run();
                assertArrayEquals(Arrays.copyOfRange(data(0, 4 * size), 4 * rank, 4 * rank + 4), recv);
                gather.run();
            }
            int[] sum = {rank};
            comm.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(size * (size - 1) / 2, sum[0], "the communicator still works");
        });
    }

    private interface Call {
        void run() throws MPIException;
    }

    static IntStream sizes() {
        return IntStream.of(1, 2, 3, 5, 8);
    }

    /** The checks of one rank of an intracommunicator. */
    private record Rank(Intracomm comm, int rank, int size) {
        void gatherAndGatherv(int root) throws MPIException {
            int sent = sent(rank);
            int room = 5; // every rank sends fewer
            int[] recv = rank == root ? filled(size * room) : null;
            comm.gather(data(rank, sent), sent, MPI.INT, recv, room, MPI.INT, root);
            int[] counts = IntStream.range(0, size).map(j -> room).toArray();
            if (rank == root) {
                assertArrayEquals(placed(ranks(size), counts, besideEachOther(counts), recv.length), recv,
                        "gather to " + root);
            }
            int[] vCounts = IntStream.range(0, size).map(j -> sent(j) + SPARE).toArray();
            int[] displs = withGaps(vCounts);
            int[] vRecv = rank == root ? filled(end(vCounts, displs) + 1) : null;
            comm.gatherv(data(rank, sent), sent, MPI.INT, vRecv, vCounts, displs, MPI.INT, root);
            if (rank == root) {
                assertArrayEquals(placed(ranks(size), vCounts, displs, vRecv.length), vRecv, "gatherv to " + root);
            }
        }

        void scatterAndScatterv(int root) throws MPIException {
            int[] send = rank == root ? blocksFor(root, repeated(2, size), besideEachOther(repeated(2, size))) : null;
            int[] recv = filled(2 + SPARE);
            comm.scatter(send, 2, MPI.INT, recv, 2 + SPARE, MPI.INT, root);
            assertArrayEquals(withData(filled(2 + SPARE), 0, data(100 + root, 2)), recv, "scatter from " + root);
            int[] displs = withGaps(sentCounts(size));
            int[] vSend = rank == root ? blocksFor(root, sentCounts(size), displs) : null;
            int[] vRecv = filled(sent(rank) + SPARE);
            comm.scatterv(vSend, sentCounts(size), displs, MPI.INT, vRecv, sent(rank) + SPARE, MPI.INT, root);
            assertArrayEquals(withData(filled(sent(rank) + SPARE), 0, data(100 + root, sent(rank))), vRecv,
                    "scatterv from " + root);
        }

        /**
         * Every rank sends {@code count} items into blocks of {@code count + SPARE}, three times on the same buffers
         * with new data (the second and third calls run the kept schedule).
         */
        void allGather(int count) throws MPIException {
            int room = count + SPARE;
            int[] send = new int[count];
            int[] recv = new int[size * room];
            for (int call = 0; call < 3; call++) {
                withData(send, 0, data(rank + call, count));
                withData(recv, 0, filled(recv.length));
                comm.allGather(send, count, MPI.INT, recv, room, MPI.INT);
                int[] expected = filled(recv.length);
                for (int j = 0; j < size; j++) {
                    withData(expected, j * room, data(j + call, count));
                }
                assertArrayEquals(expected, recv, "allgather of " + count + " into " + room + ", call " + call);
            }
        }

        /** Rank j sends {@code count + j % 3} items into a block of {@code count + 3} (ring: any lengths). */
        void allGatherv(int count) throws MPIException {
            int[] counts = repeated(count + 3, size);
            int[] displs = withGaps(counts);
            int[] recv = filled(end(counts, displs) + 1);
            int mine = count + rank % 3;
            comm.allGatherv(data(rank, mine), mine, MPI.INT, recv, counts, displs, MPI.INT);
            int[] expected = filled(recv.length);
            for (int j = 0; j < size; j++) {
                withData(expected, displs[j], data(j, count + j % 3));
            }
            assertArrayEquals(expected, recv, "allgatherv around " + count);
        }

        /** Every rank sends {@code count} items to each into blocks of {@code count + SPARE}, three times. */
        void allToAll(int count) throws MPIException {
            int room = count + SPARE;
            int[] send = new int[size * count];
            int[] recv = new int[size * room];
            for (int call = 0; call < 3; call++) {
                for (int j = 0; j < size; j++) {
                    withData(send, j * count, data(rank * size + j + call, count));
                }
                withData(recv, 0, filled(recv.length));
                comm.allToAll(send, count, MPI.INT, recv, room, MPI.INT);
                int[] expected = filled(recv.length);
                for (int j = 0; j < size; j++) {
                    withData(expected, j * room, data(j * size + rank + call, count));
                }
                assertArrayEquals(expected, recv, "alltoall of " + count + " into " + room + ", call " + call);
            }
        }

        void allToAllvAndW() throws MPIException {
            int[] sendCounts = IntStream.range(0, size).map(j -> (rank + j) % 3).toArray();
            int[] recvCounts = IntStream.range(0, size).map(j -> (j + rank) % 3 + SPARE).toArray();
            int[] sdispls = withGaps(sendCounts);
            int[] rdispls = withGaps(recvCounts);
            int[] send = new int[end(sendCounts, sdispls)];
            for (int j = 0; j < size; j++) {
                System.arraycopy(data(rank * size + j, sendCounts[j]), 0, send, sdispls[j], sendCounts[j]);
            }
            int length = end(recvCounts, rdispls) + 1;
            int[] expected = filled(length);
            for (int j = 0; j < size; j++) {
                withData(expected, rdispls[j], data(j * size + rank, recvCounts[j] - SPARE));
            }
            int[] recv = filled(length);
            comm.allToAllv(send, sendCounts, sdispls, MPI.INT, recv, recvCounts, rdispls, MPI.INT);
            assertArrayEquals(expected, recv, "alltoallv");

            Datatype[] types = new Datatype[size];
            Arrays.fill(types, MPI.INT);
            IntBuffer wSend = MPI.newIntBuffer(Math.max(1, send.length)).put(0, send);
            IntBuffer wRecv = MPI.newIntBuffer(length).put(0, filled(length));
            comm.allToAllw(wSend, sendCounts, bytes(sdispls), types, wRecv, recvCounts, bytes(rdispls), types);
            int[] got = new int[length];
            wRecv.get(0, got);
            assertArrayEquals(expected, got, "alltoallw");
        }

        void nonblocking() throws MPIException {
            int sent = sent(rank);
            int[] counts = IntStream.range(0, size).map(j -> sent(j) + SPARE).toArray();
            int[] displs = withGaps(counts);
            int length = end(counts, displs) + 1;
            IntBuffer mine = MPI.newIntBuffer(sent).put(0, data(rank, sent));
            IntBuffer gathered = MPI.newIntBuffer(length).put(0, filled(length));
            comm.iGatherv(mine, sent, MPI.INT, gathered, counts, displs, MPI.INT, 0).waitFor();
            if (rank == 0) {
                assertArrayEquals(placed(ranks(size), counts, displs, length), contents(gathered), "iGatherv");
            }
            IntBuffer all = MPI.newIntBuffer(length).put(0, filled(length));
            comm.iAllGatherv(mine, sent, MPI.INT, all, counts, displs, MPI.INT).waitFor();
            assertArrayEquals(placed(ranks(size), counts, displs, length), contents(all), "iAllGatherv");
            IntBuffer toScatter = MPI.newIntBuffer(length).put(0, blocksFor(0, sentCounts(size), displs));
            IntBuffer scattered = MPI.newIntBuffer(sent + SPARE).put(0, filled(sent + SPARE));
            comm.iScatterv(toScatter, sentCounts(size), displs, MPI.INT, scattered, sent + SPARE, MPI.INT, 0)
                    .waitFor();
            assertArrayEquals(withData(filled(sent + SPARE), 0, data(100, sent)), contents(scattered), "iScatterv");
            IntBuffer out = MPI.newIntBuffer(size);
            for (int j = 0; j < size; j++) {
                out.put(j, rank * size + j + 1);
            }
            IntBuffer in = MPI.newIntBuffer(size * 3).put(0, filled(size * 3));
            comm.iAllToAll(out, 1, MPI.INT, in, 3, MPI.INT).waitFor();
            int[] expected = filled(size * 3);
            for (int j = 0; j < size; j++) {
                expected[3 * j] = j * size + rank + 1;
            }
            assertArrayEquals(expected, contents(in), "iAllToAll");
        }

        /** A periodic ring: slot 0 from the −1 neighbour (what it sent to its +1 side), slot 1 from the +1. */
        void neighbours() throws MPIException {
            CartComm ring = comm.createCart(new int[] {size}, new boolean[] {true}, false);
            ring.setErrhandler(MPI.ERRORS_RETURN);
            int left = (rank - 1 + size) % size;
            int right = (rank + 1) % size;
            int[] gathered = filled(2 * 3);
            ring.neighborAllGather(data(rank, 2), 2, MPI.INT, gathered, 3, MPI.INT);
            int[] expected = withData(withData(filled(6), 0, data(left, 2)), 3, data(right, 2));
            assertArrayEquals(expected, gathered, "neighbour allgather");
            int[] send = {rank * 10 + 1, rank * 10 + 2}; // to the −1 side, to the +1 side
            int[] exchanged = filled(2 * 2);
            ring.neighborAllToAll(send, 1, MPI.INT, exchanged, 2, MPI.INT);
            assertArrayEquals(new int[] {left * 10 + 2, UNTOUCHED, right * 10 + 1, UNTOUCHED}, exchanged,
                    "neighbour alltoall");
            ring.free();
        }
    }

    /** Rank j sends {@code j % 3 + 1} items (to the root's block, or from it). */
    private static int sent(int j) {
        return j % 3 + 1;
    }

    private static int[] sentCounts(int n) {
        return IntStream.range(0, n).map(ShortBlocksTest::sent).toArray();
    }

    /** A send buffer with blocks of {@code counts} at {@code displs}, each {@code data(100 + sender, count)}. */
    private static int[] blocksFor(int sender, int[] counts, int[] displs) {
        int[] buf = filled(end(counts, displs));
        for (int j = 0; j < counts.length; j++) {
            withData(buf, displs[j], data(100 + sender, counts[j]));
        }
        return buf;
    }

    private static int end(int[] counts, int[] displs) {
        return IntStream.range(0, counts.length).map(j -> displs[j] + counts[j]).max().orElse(0);
    }

    /** A receive buffer after blocks j of room {@code counts[j]} took {@code sent(j)} items of {@code from[j]}. */
    private static int[] placed(int[] from, int[] counts, int[] displs, int length) {
        int[] expected = filled(length);
        for (int j = 0; j < from.length; j++) {
            withData(expected, displs[j], data(from[j], Math.min(sent(j), counts[j])));
        }
        return expected;
    }

    private static int[] ranks(int n) {
        return IntStream.range(0, n).toArray();
    }

    private static int[] besideEachOther(int[] counts) {
        int[] displs = new int[counts.length];
        for (int j = 1; j < counts.length; j++) {
            displs[j] = displs[j - 1] + counts[j - 1];
        }
        return displs;
    }

    /** Blocks in reverse rank order with a one-item gap after each. */
    private static int[] withGaps(int[] counts) {
        int[] displs = new int[counts.length];
        int at = 0;
        for (int j = counts.length - 1; j >= 0; j--) {
            displs[j] = at;
            at += counts[j] + 1;
        }
        return displs;
    }

    private static int sum(int[] counts) {
        return Arrays.stream(counts).sum();
    }

    private static int[] bytes(int[] displs) {
        return Arrays.stream(displs).map(d -> 4 * d).toArray();
    }

    private static int[] withData(int[] buf, int at, int[] data) {
        System.arraycopy(data, 0, buf, at, data.length);
        return buf;
    }
}
