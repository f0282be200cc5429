package mpi;

/** CartComm of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class CartComm extends Intracomm {
    CartComm(org.weft.core.comm.Communicator communicator) {
        super(communicator);
    }

    /** {@code MPI_Comm_dup}, errors unchecked. */
    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    /** {@code MPI_Comm_dup} (not implemented in Weft yet). */
    @Override
    public CartComm dup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_dup");
    }

    /** {@code MPI_Comm_idup} (not implemented in Weft yet). */
    @Override
    public CartComm iDup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_idup");
    }

    /** {@code MPI_Comm_dup_with_info} (not implemented in Weft yet). */
    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_dup_with_info");
    }

    /** {@code MPI_Cart_get} (not implemented in Weft yet). */
    public CartParms getTopo() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Cart_get");
    }

    /** {@code MPI_Cart_rank} (not implemented in Weft yet). */
    public int getRank(int[] counts) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Cart_rank");
    }

    /** {@code MPI_Cart_coords} (not implemented in Weft yet). */
    public int[] getCoords(int value) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Cart_coords");
    }

    /** {@code MPI_Cart_shift} (not implemented in Weft yet). */
    public ShiftParms shift(int value, int value2) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Cart_shift");
    }

    /** {@code MPI_Cart_sub} (not implemented in Weft yet). */
    public CartComm sub(boolean[] flags) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Cart_sub");
    }

    /** {@code MPI_Cart_map} (not implemented in Weft yet). */
    public int map(int[] counts, boolean[] flags) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Cart_map");
    }

    /** {@code MPI_Dims_create} (not implemented in Weft yet). */
    public static void createDims(int value, int[] counts) throws MPIException {
        throw Errors.unsupported("MPI_Dims_create");
    }
}
