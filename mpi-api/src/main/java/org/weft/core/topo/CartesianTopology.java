package org.weft.core.topo;

import java.util.Arrays;

import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.error.MpiErrors;

/**
 * A Cartesian grid ({@code MPI_Cart_create}): dimensions, periodicity, and this rank's coordinates. Ranks are laid
 * out in row-major order (the last dimension varies fastest), as MPI requires. Immutable.
 */
public final class CartesianTopology implements Topology {
    private final int[] dims;
    private final boolean[] periods;
    private final int rank;
    private final int[] neighbours;

    /** The grid seen from communicator rank {@code rank}; {@code dims} and {@code periods} are checked. */
    public CartesianTopology(int[] dims, boolean[] periods, int rank) {
        this.dims = dims.clone();
        this.periods = periods.clone();
        this.rank = rank;
        this.neighbours = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++) {
            int[] shift = shift(d, 1);
            neighbours[2 * d] = shift[0];
            neighbours[2 * d + 1] = shift[1];
        }
    }

    /**
     * Checks the arguments of {@code MPI_Cart_create} on a communicator of {@code size}: {@code ERR_ARG} for
     * missing or mismatched arrays and for a grid larger than the communicator, {@code ERR_DIMS} for a
     * dimension below 1. Returns the number of grid points.
     */
    public static int checkedGridSize(int[] dims, boolean[] periods, int size) {
        if (dims == null || periods == null || periods.length < dims.length) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "dims and periods must be given, of the same length");
        }
        long points = 1;
        for (int d : dims) {
            if (d < 1) {
                throw MpiErrors.error(ErrorClass.ERR_DIMS, "dimension " + d + " in " + Arrays.toString(dims)
                        + " is not positive");
            }
            points *= d;
            if (points > size) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "a grid of " + Arrays.toString(dims)
                        + " does not fit in a communicator of " + size);
            }
        }
        return (int) points;
    }

    /** The number of grid points (the size of the Cartesian communicator). */
    public int gridSize() {
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        return n;
    }

    public int dimensionCount() {
        return dims.length;
    }

    public int[] dims() {
        return dims.clone();
    }

    public boolean[] periods() {
        return periods.clone();
    }

    /** {@code MPI_Cart_coords}: {@code ERR_RANK} if {@code r} is not a rank of the grid. */
    public int[] coords(int r) {
        if (r < 0 || r >= gridSize()) {
            throw MpiErrors.error(ErrorClass.ERR_RANK, "rank " + r + " is not in a grid of " + gridSize());
        }
        int[] coords = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            coords[d] = r % dims[d];
            r /= dims[d];
        }
        return coords;
    }

    /**
     * {@code MPI_Cart_rank}: coordinates outside a periodic dimension wrap around; outside a non-periodic one
     * they are {@code ERR_ARG}.
     */
    public int rankOf(int[] coords) {
        if (coords == null || coords.length < dims.length) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "expected " + dims.length + " coordinates");
        }
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            int c = coords[d];
            if (periods[d]) {
                c = Math.floorMod(c, dims[d]);
            } else if (c < 0 || c >= dims[d]) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "coordinate " + c + " is outside dimension " + d
                        + " of size " + dims[d]);
            }
            r = r * dims[d] + c;
        }
        return r;
    }

    /**
     * {@code MPI_Cart_shift}: {source, destination} of this rank for a shift by {@code disp} along
     * {@code direction}; {@code PROC_NULL} past a non-periodic edge. {@code ERR_DIMS} for a bad direction.
     */
    public int[] shift(int direction, int disp) {
        if (direction < 0 || direction >= dims.length) {
            throw MpiErrors.error(ErrorClass.ERR_DIMS, "direction " + direction + " is not a dimension of "
                    + Arrays.toString(dims));
        }
        int[] mine = coords(rank);
        return new int[] {moved(mine, direction, -disp), moved(mine, direction, disp)};
    }

    private int moved(int[] coords, int direction, int by) {
        int[] c = coords.clone();
        c[direction] += by;
        if (!periods[direction] && (c[direction] < 0 || c[direction] >= dims[direction])) {
            return Ranks.PROC_NULL;
        }
        return rankOf(c);
    }

    /** {@code MPI_Cart_sub}: the colour of this rank's sub-grid (its coordinates in the dropped dimensions). */
    public int subgridColour(boolean[] remain) {
        checkRemain(remain);
        int[] mine = coords(rank);
        int colour = 0;
        for (int d = 0; d < dims.length; d++) {
            if (!remain[d]) {
                colour = colour * dims[d] + mine[d];
            }
        }
        return colour;
    }

    /** The grid of the kept dimensions, seen from rank {@code subRank} of the sub-grid. */
    public CartesianTopology subgrid(boolean[] remain, int subRank) {
        checkRemain(remain);
        int kept = 0;
        for (boolean r : remain) {
            kept += r ? 1 : 0;
        }
        int[] subDims = new int[kept];
        boolean[] subPeriods = new boolean[kept];
        for (int d = 0, k = 0; d < dims.length; d++) {
            if (remain[d]) {
                subDims[k] = dims[d];
                subPeriods[k++] = periods[d];
            }
        }
        return new CartesianTopology(subDims, subPeriods, subRank);
    }

    private void checkRemain(boolean[] remain) {
        if (remain == null || remain.length < dims.length) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "expected " + dims.length + " flags of dimensions to keep");
        }
    }

    /** Neighbours in MPI's order: per dimension the {@code -1} then the {@code +1} neighbour. */
    @Override
    public int[] sources() {
        return neighbours.clone();
    }

    /** The same as {@link #sources()}: a Cartesian neighbourhood is symmetric. */
    @Override
    public int[] destinations() {
        return neighbours.clone();
    }

    /** Neighbour collectives pair the −1 and +1 directions (see {@link Topology#isCartesian()}). */
    @Override
    public boolean isCartesian() {
        return true;
    }
}
