package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.weft.tests.coll.BlockData.contents;
import static org.weft.tests.coll.BlockData.data;
import static org.weft.tests.coll.BlockData.filled;
import static org.weft.tests.coll.BlockData.repeated;

import java.nio.IntBuffer;
import java.util.stream.IntStream;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.comm.TwoGroups;
import org.weft.tests.comm.Worlds;

/**
 * Gatherv and allgatherv into blocks whose displacements overlap (erroneous, but common in course material;
 * behaviours.md item 21): the blocks are written in rank order, so the last rank's block wins where they
 * overlap, as Open MPI's linear gatherv writes them — at every root (the root's own block too takes its turn),
 * blocking and nonblocking, in place, with data shorter than its block, and on an intercommunicator (gatherv,
 * allgatherv).
 * The expected buffer is made by writing each rank's block in rank order. At 1–5 and 8 ranks, default methods and
 * tcp.
 */
@Timeout(120)
class OverlappingBlocksTest {
    private static final int BLOCK = 3;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void overlappingBlocksAreWrittenInRankOrder(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            comm.setErrhandler(MPI.ERRORS_RETURN);
            int[] counts = repeated(BLOCK, size);
            int[] displs = IntStream.range(0, size).toArray(); // block i covers items i .. i + 2
            int length = size + BLOCK;
            int[] expected = inRankOrder(IntStream.range(0, size).toArray(), counts, displs, length);
            for (int root = 0; root < size; root++) {
                int[] recv = rank == root ? filled(length) : null;
                comm.gatherv(data(rank, BLOCK), BLOCK, MPI.INT, recv, counts, displs, MPI.INT, root);
                if (rank == root) {
                    assertArrayEquals(expected, recv, "gatherv to " + root);
                }
            }
            int[] all = filled(length);
            comm.allGatherv(data(rank, BLOCK), BLOCK, MPI.INT, all, counts, displs, MPI.INT);
            assertArrayEquals(expected, all, "allgatherv");

            int[] inPlace = filled(length);
            System.arraycopy(data(rank, BLOCK), 0, inPlace, displs[rank], BLOCK);
            comm.allGatherv(inPlace, counts, displs, MPI.INT);
            assertArrayEquals(expected, inPlace, "allgatherv in place");

            IntBuffer mine = MPI.newIntBuffer(BLOCK).put(0, data(rank, BLOCK));
            IntBuffer gathered = MPI.newIntBuffer(length).put(0, filled(length));
            comm.iGatherv(mine, BLOCK, MPI.INT, gathered, counts, displs, MPI.INT, size - 1).waitFor();
            if (rank == size - 1) {
                assertArrayEquals(expected, contents(gathered), "iGatherv");
            }
            IntBuffer allNonblocking = MPI.newIntBuffer(length).put(0, filled(length));
            comm.iAllGatherv(mine, BLOCK, MPI.INT, allNonblocking, counts, displs, MPI.INT).waitFor();
            assertArrayEquals(expected, contents(allNonblocking), "iAllGatherv");

            // every rank sends 2 items into its block of 3 that starts where the one before it ends - 1
            int[] shortDispls = IntStream.range(0, size).map(i -> 2 * i).toArray();
            int[] shortExpected = filled(2 * size + 1);
            for (int i = 0; i < size; i++) {
                System.arraycopy(data(i, 2), 0, shortExpected, shortDispls[i], 2);
            }
            int[] shortAll = filled(shortExpected.length);
            comm.allGatherv(data(rank, 2), 2, MPI.INT, shortAll, counts, shortDispls, MPI.INT);
            assertArrayEquals(shortExpected, shortAll, "allgatherv of 2 items into overlapping blocks of 3");
        });
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#twoGroupSizesAndMethods")
    void overlappingBlocksOfIntercommunicatorCollectivesAreWrittenInRankOrder(int size, String methods)
            throws Exception {
        Worlds.of(size, methods).run(rank -> {
            TwoGroups groups = TwoGroups.of(size, rank);
            Intercomm inter = groups.inter();
            int[] remote = groups.remoteWorld();
            int[] counts = repeated(BLOCK, remote.length);
            int[] displs = IntStream.range(0, remote.length).toArray();
            int root = groups.low() ? (inter.getRank() == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
            int[] recv = filled(remote.length + BLOCK);
            inter.gatherv(data(rank, BLOCK), BLOCK, MPI.INT, recv, counts, displs, MPI.INT, root);
            if (root == MPI.ROOT) {
                assertArrayEquals(inRankOrder(remote, counts, displs, recv.length), recv, "inter gatherv");
            }
            int[] all = filled(remote.length + BLOCK);
            inter.allGatherv(data(rank, BLOCK), BLOCK, MPI.INT, all, counts, displs, MPI.INT);
            assertArrayEquals(inRankOrder(remote, counts, displs, all.length), all, "inter allgatherv");
            groups.free();
        });
    }

    /** A buffer of {@code length} after block i ({@code data(senders[i], counts[i])}) was written, in rank order. */
    private static int[] inRankOrder(int[] senders, int[] counts, int[] displs, int length) {
        int[] buf = filled(length);
        for (int i = 0; i < senders.length; i++) {
            System.arraycopy(data(senders[i], counts[i]), 0, buf, displs[i], counts[i]);
        }
        return buf;
    }
}
