package mpi;

import org.weft.adi.DeviceException;
import org.weft.core.comm.Communicator;
import org.weft.core.topo.CartesianTopology;
import org.weft.core.topo.GridDims;
import org.weft.core.topo.TopologyComms;

/** A communicator with a Cartesian topology ({@code MPI_Cart_create}); the grid lives in the core communicator. */
public final class CartComm extends Intracomm {
    CartComm(Communicator communicator) {
        super(communicator);
    }

    /** A null Cartesian communicator, for ranks left out of a grid. */
    static CartComm nullComm() {
        return new CartComm(null);
    }

    /** {@code MPI_Comm_dup}, errors unchecked. */
    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    /** {@code MPI_Comm_dup}: the duplicate has the same grid. */
    @Override
    public CartComm dup() throws MPIException {
        return (CartComm) super.dup();
    }

    /** {@code MPI_Comm_idup}: completes at once. */
    @Override
    public CartComm iDup() throws MPIException {
        return (CartComm) super.iDup();
    }

    /** {@code MPI_Comm_dup_with_info}. */
    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return (CartComm) super.dupWithInfo(info);
    }

    private CartesianTopology grid() throws MPIException {
        return (CartesianTopology) core().topology();
    }

    /** A grid query that may throw the core's errors. */
    @FunctionalInterface
    private interface Query<T> {
        T ask(CartesianTopology grid);
    }

    private <T> T query(String call, Query<T> query) throws MPIException {
        Communicator c = core();
        try {
            return query.ask((CartesianTopology) c.topology());
        } catch (DeviceException e) {
            throw Errors.raise(c, call, e);
        }
    }

    /** {@code MPI_Cart_get}: dimensions, periods and this process's coordinates. */
    public CartParms getTopo() throws MPIException {
        CartesianTopology grid = grid();
        return new CartParms(grid.dims(), grid.periods(), grid.coords(getRank()));
    }

    /** {@code MPI_Cart_rank}: periodic coordinates wrap; others out of range are {@code ERR_ARG}. */
    public int getRank(int[] coords) throws MPIException {
        return query("MPI_Cart_rank", grid -> grid.rankOf(coords));
    }

    /** {@code MPI_Cart_coords}: {@code ERR_RANK} for a rank outside the grid. */
    public int[] getCoords(int rank) throws MPIException {
        return query("MPI_Cart_coords", grid -> grid.coords(rank));
    }

    /** {@code MPI_Cart_shift}: {@code MPI.PROC_NULL} past a non-periodic edge; {@code ERR_DIMS} for a bad direction. */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        int[] ranks = query("MPI_Cart_shift", grid -> grid.shift(direction, disp));
        return new ShiftParms(ranks[0], ranks[1]);
    }

    /** {@code MPI_Cart_sub}: the sub-grid of the dimensions where {@code remainDims} is true. */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        return (CartComm) created("MPI_Cart_sub", c -> TopologyComms.cartSub(c, remainDims));
    }

    /** {@code MPI_Cart_map}: Weft does not reorder, so this rank if it fits in the grid, else {@code UNDEFINED}. */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        Communicator c = core();
        try {
            int points = CartesianTopology.checkedGridSize(dims, periods, c.size());
            return c.rank() < points ? c.rank() : MPI.UNDEFINED;
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Cart_map", e);
        }
    }

    /** {@code MPI_Dims_create}: fills the zero entries of {@code dims}, balanced; {@code ERR_DIMS} if impossible. */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        try {
            GridDims.fill(nnodes, dims);
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Dims_create", e);
        }
    }
}
