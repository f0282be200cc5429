package org.weft.core.topo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;

/** Dims_create, Cartesian rank/coordinate arithmetic and shifts, graph neighbours, and their error classes. */
class TopologyMathTest {
    @Test
    void dimsAreBalancedAndLargestFirst() {
        assertArrayEquals(new int[] {3, 2}, fill(6, new int[2]));
        assertArrayEquals(new int[] {4, 3, 2}, fill(24, new int[3]));
        assertArrayEquals(new int[] {2, 2, 2}, fill(8, new int[3]));
        assertArrayEquals(new int[] {7, 1}, fill(7, new int[2]));
        assertArrayEquals(new int[] {2, 3, 1}, fill(6, new int[] {2, 0, 0}));
        assertEquals(ErrorClass.ERR_DIMS, errorOf(() -> GridDims.fill(7, new int[] {2, 0})));
        assertEquals(ErrorClass.ERR_DIMS, errorOf(() -> GridDims.fill(0, new int[1])));
        assertEquals(ErrorClass.ERR_DIMS, errorOf(() -> GridDims.fill(4, new int[] {-1, 0})));
    }

    @Test
    void cartesianRanksCoordinatesAndShifts() {
        CartesianTopology grid = new CartesianTopology(new int[] {2, 3}, new boolean[] {false, true}, 4);
        assertArrayEquals(new int[] {1, 1}, grid.coords(4));
        assertEquals(5, grid.rankOf(new int[] {1, -1}));
        assertArrayEquals(new int[] {1, Ranks.PROC_NULL}, grid.shift(0, 1));
        assertArrayEquals(new int[] {3, 5}, grid.shift(1, 1));
        assertArrayEquals(new int[] {1, Ranks.PROC_NULL, 3, 5}, grid.sources());
        assertEquals(ErrorClass.ERR_ARG, errorOf(() -> grid.rankOf(new int[] {2, 0})));
        assertEquals(ErrorClass.ERR_RANK, errorOf(() -> grid.coords(6)));
        assertEquals(ErrorClass.ERR_DIMS, errorOf(() -> grid.shift(2, 1)));
        assertEquals(ErrorClass.ERR_DIMS, errorOf(() -> CartesianTopology.checkedGridSize(new int[] {0, 2},
                new boolean[2], 4)));
        assertEquals(ErrorClass.ERR_ARG, errorOf(() -> CartesianTopology.checkedGridSize(new int[] {3, 2},
                new boolean[2], 4)));
    }

    @Test
    void graphNeighbours() {
        GraphTopology ring = new GraphTopology(new int[] {2, 4, 6}, new int[] {1, 2, 0, 2, 0, 1}, 1);
        assertArrayEquals(new int[] {0, 2}, ring.sources());
        assertArrayEquals(new int[] {0, 1}, ring.neighbours(2));
        assertEquals(ErrorClass.ERR_ARG, errorOf(() -> GraphTopology.check(new int[] {1}, new int[] {3}, 4)));
    }

    private static int[] fill(int nodes, int[] dims) {
        GridDims.fill(nodes, dims);
        return dims;
    }

    private static int errorOf(Runnable call) {
        return assertThrows(DeviceException.class, call::run).errorClass();
    }
}
