package org.weft.tests.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;

import mpi.CartComm;
import mpi.CartParms;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.comm.Worlds;

/**
 * Process topologies (MPI chapter 8): Cartesian grids (createDims, coordinates, shifts with traffic along them,
 * sub-grids, left-over ranks), graphs, distributed graphs, and their bad input.
 */
@Timeout(120)
class TopologiesTest {
    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void cartesianGraphAndDistGraph(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            cartesian(world, rank, size);
            leftOverRanks(world, rank, size);
            graphRing(world, rank, size);
            distGraphRing(world, rank, size);
            badInput(world, size);
        });
    }

    private static void cartesian(Intracomm world, int rank, int size) throws MPIException {
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        assertEquals(size, dims[0] * dims[1]);
        assertTrue(dims[0] >= dims[1]);
        CartComm cart = world.createCart(dims, new boolean[] {true, false}, false);
        assertEquals(MPI.CART, cart.getTopology());
        assertEquals(MPI.UNDEFINED, world.getTopology());
        CartParms parms = cart.getTopo();
        int[] coords = cart.getCoords(cart.getRank());
        assertArrayEquals(new int[] {rank / dims[1], rank % dims[1]}, coords);
        assertEquals(coords[0], parms.getCoord(0));
        assertEquals(dims[1], parms.getDim(1));
        assertTrue(parms.getPeriod(0));
        assertFalse(parms.getPeriod(1));
        assertEquals(rank, cart.getRank(coords));
        assertEquals(rank, cart.map(dims, new boolean[2]));

        // Shift along the periodic dimension: every rank sends up and receives from below.
        ShiftParms down = cart.shift(0, 1);
        int[] got = {-1};
        cart.sendRecv(new int[] {rank}, 1, MPI.INT, down.getRankDest(), 0, got, 1, MPI.INT,
                down.getRankSource(), 0);
        assertEquals(cart.getRank(new int[] {coords[0] - 1, coords[1]}), got[0]);
        // Along the open dimension the edges are PROC_NULL.
        ShiftParms across = cart.shift(1, 1);
        assertEquals(coords[1] == dims[1] - 1 ? MPI.PROC_NULL : rank + 1, across.getRankDest());
        assertEquals(coords[1] == 0 ? MPI.PROC_NULL : rank - 1, across.getRankSource());

        CartComm rows = cart.sub(new boolean[] {false, true});
        assertEquals(dims[1], rows.getSize());
        assertEquals(coords[1], rows.getRank());
        int[] sum = new int[1];
        rows.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        int first = coords[0] * dims[1];
        assertEquals(IntStream.range(first, first + dims[1]).sum(), sum[0], "a row sums its own ranks only");
        assertEquals(1, rows.getTopo().getDimCount());
        CartComm dup = cart.dup();
        assertArrayEquals(coords, dup.getCoords(dup.getRank()), "a dup keeps the grid");
        dup.free();
        rows.free();
        cart.free();
    }

    /** A grid of size - 1 points leaves the last rank out with a null communicator. */
    private static void leftOverRanks(Intracomm world, int rank, int size) throws MPIException {
        if (size < 2) {
            return;
        }
        CartComm line = world.createCart(new int[] {size - 1}, new boolean[] {false}, true);
        assertEquals(rank == size - 1, line.isNull());
        if (!line.isNull()) {
            line.free();
        }
    }

    private static void graphRing(Intracomm world, int rank, int size) throws MPIException {
        int[] index = IntStream.range(0, size).map(i -> 2 * (i + 1)).toArray();
        int[] edges = IntStream.range(0, 2 * size)
                .map(e -> e % 2 == 0 ? (e / 2 + size - 1) % size : (e / 2 + 1) % size).toArray();
        GraphComm graph = world.createGraph(index, edges, false);
        assertEquals(MPI.GRAPH, graph.getTopology());
        assertArrayEquals(new int[] {(rank + size - 1) % size, (rank + 1) % size}, graph.getNeighbors(rank));
        GraphParms parms = graph.getDims();
        assertEquals(size, parms.getIndexCount());
        assertEquals(2 * size, parms.getEdgeCount());
        assertEquals(MPI.ERR_TOPOLOGY, assertThrows(MPIException.class, graph::getDistGraphNeighbors)
                .getErrorClass());
        graph.free();
    }

    /** Rank r names the edge r -> r+1 (weight r); adjacent: everyone names its own ring neighbours. */
    private static void distGraphRing(Intracomm world, int rank, int size) throws MPIException {
        GraphComm dist = world.createDistGraph(new int[] {rank}, new int[] {1}, new int[] {(rank + 1) % size},
                new int[] {rank}, MPI.INFO_NULL, false);
        assertEquals(MPI.DIST_GRAPH, dist.getTopology());
        DistGraphNeighbors n = dist.getDistGraphNeighbors();
        assertEquals(1, n.getInDegree());
        assertEquals(1, n.getOutDegree());
        assertTrue(n.isWeighted());
        int left = (rank + size - 1) % size;
        assertEquals(left, n.getSource(0));
        assertEquals(left, n.getSourceWeight(0));
        assertEquals((rank + 1) % size, n.getDestination(0));
        assertEquals(rank, n.getDestinationWeight(0));
        dist.free();

        GraphComm adjacent = world.createDistGraphAdjacent(new int[] {left}, new int[] {(rank + 1) % size},
                MPI.INFO_NULL, false);
        DistGraphNeighbors a = adjacent.getDistGraphNeighbors();
        assertFalse(a.isWeighted());
        assertEquals(left, a.getSource(0));
        adjacent.free();
    }

    private static void badInput(Intracomm world, int size) throws MPIException {
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class,
                () -> CartComm.createDims(7, new int[] {2, 0})).getErrorClass());
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class,
                () -> CartComm.createDims(0, new int[1])).getErrorClass());
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class,
                () -> world.createCart(new int[] {0}, new boolean[1], false)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> world.createCart(new int[] {size + 1}, new boolean[1], false)).getErrorClass());
        CartComm line = world.createCart(new int[] {size}, new boolean[] {false}, false);
        assertEquals(MPI.ERR_DIMS, assertThrows(MPIException.class, () -> line.shift(1, 1)).getErrorClass());
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> line.getCoords(size)).getErrorClass());
        line.free();
    }
}
