package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;

import mpi.Datatype;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.comm.TwoGroups;
import org.weft.tests.comm.Worlds;

/**
 * The vector collectives of an intercommunicator (MPI 4.1 §6.2.2) through the {@code mpi} API: the world split
 * into a smaller low group and a larger high group ({@link TwoGroups}); allgatherv (blocking and
 * nonblocking, with gaps between the blocks), alltoallv and alltoallw with counts that differ per pair, and
 * reduce-scatter and reduce-scatter-block, where each group gets the other group's sum scattered over itself.
 * Every value names the world rank that sent it, so a block from the wrong process shows.
 */
@Timeout(60)
class IntercommVectorCollectivesTest {
    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#twoGroupSizesAndMethods")
    void vectorCollectivesTakeTheirDataFromTheRemoteGroup(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            TwoGroups groups = TwoGroups.of(size, rank);
            Intercomm inter = groups.inter();
            int[] remoteWorld = groups.remoteWorld();

            allGatherv(inter, rank, remoteWorld);
            allToAllv(inter, rank, remoteWorld);
            allToAllw(inter, rank, remoteWorld);
            reduceScatter(inter, remoteWorld);
            reduceScatterBlock(inter, remoteWorld);
            groups.free();
        });
    }

    /** Local rank i sends i + 1 items; block j lands one slot after block j − 1 ends, the gaps stay −1. */
    private static void allGatherv(Intercomm inter, int rank, int[] remoteWorld) throws MPIException {
        int local = inter.getRank();
        int remote = remoteWorld.length;
        int[] counts = IntStream.range(0, remote).map(j -> j + 1).toArray();
        int[] displs = new int[remote];
        for (int j = 1; j < remote; j++) {
            displs[j] = displs[j - 1] + counts[j - 1] + 1;
        }
        int length = displs[remote - 1] + counts[remote - 1];
        int[] expected = new int[length];
        Arrays.fill(expected, -1);
        for (int j = 0; j < remote; j++) {
            for (int k = 0; k < counts[j]; k++) {
                expected[displs[j] + k] = remoteWorld[j] * 100 + k;
            }
        }
        int[] mine = IntStream.range(0, local + 1).map(k -> rank * 100 + k).toArray();
        int[] got = new int[length];
        Arrays.fill(got, -1);
        inter.allGatherv(mine, mine.length, MPI.INT, got, counts, displs, MPI.INT);
        assertArrayEquals(expected, got, "allGatherv gathers the remote group");

        IntBuffer out = MPI.newIntBuffer(mine.length).put(mine);
        IntBuffer in = MPI.newIntBuffer(length);
        in.put(0, filled(length, -1));
        inter.iAllGatherv(out, mine.length, MPI.INT, in, counts, displs, MPI.INT).waitFor();
        int[] nonblocking = new int[length];
        in.get(0, nonblocking);
        assertArrayEquals(expected, nonblocking, "iAllGatherv gathers the remote group");
    }

    /** Between local rank i and remote rank j go (i + j) % 3 + 1 items each way. */
    private static void allToAllv(Intercomm inter, int rank, int[] remoteWorld) throws MPIException {
        int local = inter.getRank();
        int remote = remoteWorld.length;
        int[] counts = IntStream.range(0, remote).map(j -> (local + j) % 3 + 1).toArray();
        int[] displs = packed(counts);
        int total = IntStream.of(counts).sum();
        int[] send = new int[total];
        int[] expected = new int[total];
        for (int j = 0; j < remote; j++) {
            for (int k = 0; k < counts[j]; k++) {
                send[displs[j] + k] = rank * 1000 + j * 10 + k;
                expected[displs[j] + k] = remoteWorld[j] * 1000 + local * 10 + k;
            }
        }
        int[] got = new int[total];
        inter.allToAllv(send, counts, displs, MPI.INT, got, counts, displs, MPI.INT);
        assertArrayEquals(expected, got, "allToAllv exchanges with every remote rank");
    }

    /** One int to each remote rank at byte displacements, sent in reverse order of the receive slots. */
    private static void allToAllw(Intercomm inter, int rank, int[] remoteWorld) throws MPIException {
        int local = inter.getRank();
        int remote = remoteWorld.length;
        IntBuffer send = MPI.newIntBuffer(remote);
        IntBuffer recv = MPI.newIntBuffer(remote);
        int[] ones = filled(remote, 1);
        int[] sendDispls = IntStream.range(0, remote).map(j -> 4 * (remote - 1 - j)).toArray();
        int[] recvDispls = IntStream.range(0, remote).map(j -> 4 * j).toArray();
        for (int j = 0; j < remote; j++) {
            send.put(remote - 1 - j, rank * 100 + j);
        }
        Datatype[] types = new Datatype[remote];
        Arrays.fill(types, MPI.INT);
        inter.allToAllw(send, ones, sendDispls, types, recv, ones, recvDispls, types);
        int[] got = new int[remote];
        recv.get(0, got);
        assertArrayEquals(IntStream.of(remoteWorld).map(w -> w * 100 + local).toArray(), got,
                "allToAllw exchanges with every remote rank");
    }

    /** Twelve items in each group, spread as evenly as its size allows; each gets part of the remote sum. */
    private static void reduceScatter(Intercomm inter, int[] remoteWorld) throws MPIException {
        int local = inter.getRank();
        int n = inter.getSize();
        int total = 12;
        int[] counts = IntStream.range(0, n).map(i -> total / n + (i < total % n ? 1 : 0)).toArray();
        int rank = MPI.COMM_WORLD.getRank();
        int[] send = IntStream.range(0, total).map(k -> rank + k).toArray();
        int[] got = new int[counts[local]];
        inter.reduceScatter(send, got, counts, MPI.INT, MPI.SUM);
        int from = packed(counts)[local];
        assertArrayEquals(IntStream.range(from, from + counts[local]).map(k -> remoteSum(remoteWorld, k)).toArray(),
                got, "reduceScatter gives this rank its part of the remote group's sum");
    }

    /** Both groups hold 2 · p · q items: each rank of a group of p gets 2q of the other group's sum. */
    private static void reduceScatterBlock(Intercomm inter, int[] remoteWorld) throws MPIException {
        int local = inter.getRank();
        int count = 2 * remoteWorld.length;
        int total = count * inter.getSize();
        int rank = MPI.COMM_WORLD.getRank();
        int[] send = IntStream.range(0, total).map(k -> rank + k).toArray();
        int[] got = new int[count];
        inter.reduceScatterBlock(send, got, count, MPI.INT, MPI.SUM);
        assertArrayEquals(IntStream.range(local * count, (local + 1) * count).map(k -> remoteSum(remoteWorld, k))
                .toArray(), got, "reduceScatterBlock gives this rank its block of the remote group's sum");
    }

    private static int remoteSum(int[] remoteWorld, int k) {
        return IntStream.of(remoteWorld).map(w -> w + k).sum();
    }

    private static int[] packed(int[] counts) {
        int[] displs = new int[counts.length];
        for (int j = 1; j < counts.length; j++) {
            displs[j] = displs[j - 1] + counts[j - 1];
        }
        return displs;
    }

    private static int[] filled(int n, int value) {
        int[] a = new int[n];
        Arrays.fill(a, value);
        return a;
    }
}
