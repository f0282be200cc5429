package org.weft.tests.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;

import mpi.CartComm;
import mpi.Comm;
import mpi.GraphComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.comm.Worlds;

/**
 * Neighbour collectives (MPI 4.1 §8.6) through communicators made by {@code createCart}, {@code createGraph} and
 * {@code createDistGraphAdjacent}: neighborAllGather and neighborAllToAll, blocking on arrays and nonblocking on
 * direct buffers. A periodic ring and a 2 × n grid (open in the first dimension: {@code PROC_NULL} slots stay
 * untouched; periodic of size 1 or 2 in the second: one process is both neighbours, and the block sent to the −1
 * side must still land in its +1 slot), a symmetric graph ring, and a directed dist-graph to the next two ranks.
 * Every value names its sender and the slot it was sent for.
 */
@Timeout(60)
class NeighborCollectivesOnTopologiesTest {
    private static final int GATHERED = 7;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void neighbourCollectivesFollowTheTopology(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            periodicRing(world, rank, size);
            if (size >= 2) {
                grid(world, rank, size);
            }
            graphRing(world, rank, size);
            directedDistGraph(world, rank, size);
        });
    }

    /** Slot 0 (from the −1 neighbour) holds what it sent to its +1 side (block 1), slot 1 the converse. */
    private static void periodicRing(Intracomm world, int rank, int size) throws MPIException {
        CartComm ring = world.createCart(new int[] {size}, new boolean[] {true}, false);
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        check(ring, rank, 2, new int[] {code(left, 1), code(right, 0)},
                new int[] {code(left, GATHERED), code(right, GATHERED)});
        ring.free();
    }

    /** Dimensions {2, size / 2}, open then periodic; the odd rank left over gets a null communicator. */
    private static void grid(Intracomm world, int rank, int size) throws MPIException {
        int columns = size / 2;
        CartComm grid = world.createCart(new int[] {2, columns}, new boolean[] {false, true}, false);
        if (rank >= 2 * columns) {
            assertTrue(grid.isNull(), "a rank beyond the grid");
            return;
        }
        int row = rank / columns;
        int column = rank % columns;
        int up = row == 0 ? MPI.PROC_NULL : rank - columns;
        int down = row == 1 ? MPI.PROC_NULL : rank + columns;
        int west = row * columns + (column + columns - 1) % columns;
        int east = row * columns + (column + 1) % columns;
        // the −1 neighbour of a dimension sent me its +1 block, the +1 neighbour its −1 block
        check(grid, rank, 4, new int[] {codeOrUntouched(up, 1), codeOrUntouched(down, 0), code(west, 3),
                code(east, 2)}, new int[] {codeOrUntouched(up, GATHERED), codeOrUntouched(down, GATHERED),
                code(west, GATHERED), code(east, GATHERED)});
        grid.free();
    }

    /** Each rank's neighbours are its distinct ring neighbours, in rank order; block j is for neighbour j. */
    private static void graphRing(Intracomm world, int rank, int size) throws MPIException {
        int[][] neighbours = IntStream.range(0, size).mapToObj(r -> IntStream.of((r + size - 1) % size,
                (r + 1) % size).filter(n -> n != r).distinct().sorted().toArray()).toArray(int[][]::new);
        int[] index = new int[size];
        for (int r = 0, edges = 0; r < size; r++) {
            edges += neighbours[r].length;
            index[r] = edges;
        }
        int[] edges = Arrays.stream(neighbours).flatMapToInt(IntStream::of).toArray();
        GraphComm graph = world.createGraph(index, edges, false);
        int[] mine = neighbours[rank];
        int[] out = IntStream.of(mine).map(n -> code(rank, n)).toArray();
        check(graph, out, IntStream.of(mine).map(n -> code(n, rank)).toArray(),
                IntStream.of(mine).map(n -> code(n, GATHERED)).toArray());
        graph.free();
    }

    /** Rank r sends block k to r + 1 + k and receives slot k from r − 1 − k (k = 0, 1), all mod size. */
    private static void directedDistGraph(Intracomm world, int rank, int size) throws MPIException {
        int[] sources = {(rank + size - 1) % size, (rank + 2 * size - 2) % size};
        int[] destinations = {(rank + 1) % size, (rank + 2) % size};
        GraphComm dist = world.createDistGraphAdjacent(sources, destinations, MPI.INFO_NULL, false);
        check(dist, rank, 2, new int[] {code(sources[0], 0), code(sources[1], 1)},
                new int[] {code(sources[0], GATHERED), code(sources[1], GATHERED)});
        dist.free();
    }

    /** {@link #check(Comm, int[], int[], int[])} with block k being {@code code(rank, k)}. */
    private static void check(Comm c, int rank, int blocks, int[] allToAll, int[] allGather) throws MPIException {
        check(c, IntStream.range(0, blocks).map(k -> code(rank, k)).toArray(), allToAll, allGather);
    }

    /**
     * Runs neighborAllToAll of {@code out} and neighborAllGather of {@code code(rank, GATHERED)}, blocking and
     * nonblocking, into slots prefilled with −1, and compares with the expected slots.
     */
    private static void check(Comm c, int[] out, int[] allToAll, int[] allGather) throws MPIException {
        int sources = allToAll.length;
        int[] in = filled(sources);
        c.neighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT);
        assertArrayEquals(allToAll, in, "neighborAllToAll");
        int[] mine = {code(MPI.COMM_WORLD.getRank(), GATHERED)};
        int[] gathered = filled(sources);
        c.neighborAllGather(mine, 1, MPI.INT, gathered, 1, MPI.INT);
        assertArrayEquals(allGather, gathered, "neighborAllGather");

        IntBuffer outBuffer = MPI.newIntBuffer(out.length).put(0, out);
        IntBuffer inBuffer = MPI.newIntBuffer(sources).put(0, filled(sources));
        c.iNeighborAllToAll(outBuffer, 1, MPI.INT, inBuffer, 1, MPI.INT).waitFor();
        assertArrayEquals(allToAll, contents(inBuffer), "iNeighborAllToAll");
        IntBuffer mineBuffer = MPI.newIntBuffer(1).put(0, mine);
        IntBuffer gatheredBuffer = MPI.newIntBuffer(sources).put(0, filled(sources));
        c.iNeighborAllGather(mineBuffer, 1, MPI.INT, gatheredBuffer, 1, MPI.INT).waitFor();
        assertArrayEquals(allGather, contents(gatheredBuffer), "iNeighborAllGather");
    }

    private static int code(int rank, int slot) {
        return rank * 100 + slot;
    }

    /** −1 (the slot is not written) for {@code PROC_NULL}, else {@code code(rank, slot)}. */
    private static int codeOrUntouched(int rank, int slot) {
        return rank == MPI.PROC_NULL ? -1 : code(rank, slot);
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    private static int[] contents(IntBuffer b) {
        int[] a = new int[b.capacity()];
        b.get(0, a);
        return a;
    }
}
