package org.weft.tests.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;

import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code split} and {@code create} of an intercommunicator (MPI 4.1 §7.4.2) and {@code Comm.compare} of
 * intercommunicators, on the world split into a smaller low and a larger high group ({@link TwoGroups}): by
 * parity with reversed keys (a colour one group lacks gives null communicators), one colour for all but an
 * {@code UNDEFINED} rank, a subgroup on one side, and an empty subgroup (null everywhere). Each new intercommunicator must carry an
 * allreduce that sums the remote group, so its context ids are checked too.
 */
@Timeout(60)
class IntercommSplitCreateTest {
    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#twoGroupSizesAndMethods")
    void splitAndCreateMakeIntercommunicatorsOfBothGroups(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            TwoGroups groups = TwoGroups.of(size, rank);
            int lowSize = groups.lowSize();
            int highSize = size - lowSize;
            boolean low = groups.low();
            Intracomm half = groups.half();
            Intercomm inter = groups.inter();

            // by parity, last world rank first in each group
            Intercomm parity = inter.split(rank % 2, -rank);
            int[] localParity = reversed((low ? IntStream.range(0, lowSize) : IntStream.range(lowSize, size)).filter(r -> r % 2 == rank % 2).toArray());
            int[] remoteParity = reversed((low ? IntStream.range(lowSize, size) : IntStream.range(0, lowSize))
                    .filter(r -> r % 2 == rank % 2).toArray());
            assertIntercomm(parity, localParity, remoteParity, rank);

            // one colour, but the last rank of a high group of two or more opts out
            boolean optOut = rank == size - 1 && highSize > 1;
            Intercomm most = inter.split(optOut ? MPI.UNDEFINED : 0, rank);
            int[] lowMembers = IntStream.range(0, lowSize).toArray();
            int[] highMembers = IntStream.range(lowSize, highSize > 1 ? size - 1 : size).toArray();
            assertIntercomm(most, optOut ? null : low ? lowMembers : highMembers, low ? highMembers : lowMembers,
                    rank);
            if (!most.isNull()) {
                assertEquals(highSize > 1 ? MPI.UNEQUAL : MPI.CONGRUENT, Comm.compare(inter, most));
            }

            // create: the low group takes all of itself, the high group drops its last rank when it can
            Group mine = low ? half.getGroup()
                    : half.getGroup().incl(IntStream.range(0, highMembers.length).toArray());
            Intercomm created = inter.create(mine);
            assertIntercomm(created, optOut ? null : low ? lowMembers : highMembers,
                    low ? highMembers : lowMembers, rank);
            if (!created.isNull() && !most.isNull()) {
                assertEquals(MPI.CONGRUENT, Comm.compare(created, most), "same groups, same order");
            }
            Intercomm none = inter.create(low ? half.getGroup() : MPI.GROUP_EMPTY);
            assertTrue(none.isNull(), "an empty subgroup on one side gives null everywhere");

            assertEquals(MPI.IDENT, Comm.compare(inter, inter));
            Intercomm dup = inter.dup();
            assertEquals(MPI.CONGRUENT, Comm.compare(inter, dup));
            assertEquals(MPI.UNEQUAL, Comm.compare(inter, half), "an intercommunicator is never like an intra");
            Intercomm reversed = inter.split(0, -rank);
            boolean bothSingle = lowSize == 1 && highSize == 1;
            assertEquals(bothSingle ? MPI.CONGRUENT : MPI.SIMILAR, Comm.compare(inter, reversed));
            for (Intercomm c : new Intercomm[] {parity, most, created, dup, reversed}) {
                if (!c.isNull()) {
                    c.free();
                }
            }
            groups.free();
        });
    }

    /** Null when {@code local} is null or either group is empty; else the groups (by world rank) and a sum. */
    private static void assertIntercomm(Intercomm c, int[] local, int[] remote, int rank) throws MPIException {
        if (local == null || local.length == 0 || remote.length == 0) {
            assertTrue(c.isNull(), "a null intercommunicator");
            return;
        }
        assertFalse(c.isNull(), "a member gets an intercommunicator");
        assertTrue(c.isInter());
        assertArrayEquals(local, worldRanks(c.getGroup()), "local group in key order");
        assertArrayEquals(remote, worldRanks(c.getRemoteGroup()), "remote group in key order");
        assertEquals(IntStream.of(local).boxed().toList().indexOf(rank), c.getRank());
        int[] sum = new int[1];
        c.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        assertEquals(IntStream.of(remote).sum(), sum[0], "allreduce over the new intercommunicator");
    }

    private static int[] worldRanks(Group g) throws MPIException {
        return Group.translateRanks(g, IntStream.range(0, g.getSize()).toArray(), MPI.COMM_WORLD.getGroup());
    }

    private static int[] reversed(int[] a) {
        return IntStream.range(0, a.length).map(i -> a[a.length - 1 - i]).toArray();
    }
}
