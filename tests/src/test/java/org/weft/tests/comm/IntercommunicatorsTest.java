package org.weft.tests.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;

import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Intercommunicators (MPI 4.1 §7.6): the world split into low and high halves joined by
 * {@code createIntercomm}, point-to-point across, a dup, and merges in both orders.
 */
@Timeout(120)
class IntercommunicatorsTest {
    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void createTalkAcrossAndMerge(int size, String methods) throws Exception {
        if (size < 2) {
            return; // an intercommunicator needs two non-empty groups
        }
        Worlds.of(size, methods).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int lowSize = size / 2;
            boolean low = rank < lowSize;
            Intracomm half = world.split(low ? 0 : 1, rank);
            int remoteLeader = low ? lowSize : 0; // in world
            Intercomm inter = world.createIntercomm(half, 0, remoteLeader, 99);
            assertTrue(inter.isInter());
            int remoteSize = low ? size - lowSize : lowSize;
            assertEquals(remoteSize, inter.getRemoteSize());
            assertEquals(half.getSize(), inter.getSize());
            assertEquals(half.getRank(), inter.getRank());
            int[] remoteWorld = IntStream.range(0, remoteSize).map(r -> low ? lowSize + r : r).toArray();
            assertArrayEquals(remoteWorld, Group.translateRanks(inter.getRemoteGroup(),
                    IntStream.range(0, remoteSize).toArray(), world.getGroup()));

            talkAcross(inter, rank, remoteWorld);
            Intercomm dup = inter.dup();
            talkAcross(dup, rank, remoteWorld);

            // high = !low: the low half first; high = low: the high half first.
            assertMerged(inter.merge(!low), rank, size, r -> r);
            assertMerged(inter.merge(low), rank, size, r -> (r + lowSize) % size);
            // Same flag on both sides: the group of the lower leader (the low half) first.
            assertMerged(dup.merge(true), rank, size, r -> r);
            dup.free();
            inter.free();
            half.free();
        });
    }

    /** Each rank sends its world rank to remote rank (its local rank mod remote size) and receives likewise. */
    private static void talkAcross(Intercomm inter, int worldRank, int[] remoteWorld) throws MPIException {
        int local = inter.getRank();
        int remoteSize = inter.getRemoteSize();
        int localSize = inter.getSize();
        int[] senders = IntStream.range(0, localSize).filter(r -> r % remoteSize == 0).toArray();
        // Every remote rank r sends to local rank r % localSize.
        int expected = (int) IntStream.range(0, remoteSize).filter(r -> r % localSize == local).count();
        java.nio.IntBuffer out = MPI.newIntBuffer(1);
        out.put(0, worldRank);
        mpi.Request send = inter.iSend(out, 1, MPI.INT, local % remoteSize, 5);
        int sum = 0;
        for (int i = 0; i < expected; i++) {
            int[] got = new int[1];
            mpi.Status status = inter.recv(got, 1, MPI.INT, MPI.ANY_SOURCE, 5);
            assertEquals(remoteWorld[status.getSource()], got[0], "the source is a remote rank");
            sum += got[0];
        }
        send.waitFor();
        assertTrue(senders.length > 0 && sum >= 0);
    }

    private static void assertMerged(Intracomm merged, int rank, int size,
                                     java.util.function.IntUnaryOperator worldOfMergedRank) throws MPIException {
        assertEquals(size, merged.getSize());
        int[] order = IntStream.range(0, size).map(worldOfMergedRank).toArray();
        assertArrayEquals(order, Group.translateRanks(merged.getGroup(), IntStream.range(0, size).toArray(),
                MPI.COMM_WORLD.getGroup()));
        int[] sum = new int[1];
        merged.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        assertEquals(size * (size - 1) / 2, sum[0]);
        merged.free();
    }
}
