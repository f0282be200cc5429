package mpi;

/** CartParms of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class CartParms {
    CartParms() {
    }

    /** {@code MPI_CartParms_get_dim_count} (not implemented in Weft yet). */
    public int getDimCount() {
        throw new UnsupportedOperationException("MPI_CartParms_get_dim_count is not implemented in Weft yet");
    }

    /** {@code MPI_CartParms_get_dim} (not implemented in Weft yet). */
    public int getDim(int value) {
        throw new UnsupportedOperationException("MPI_CartParms_get_dim is not implemented in Weft yet");
    }

    /** {@code MPI_CartParms_get_period} (not implemented in Weft yet). */
    public boolean getPeriod(int value) {
        throw new UnsupportedOperationException("MPI_CartParms_get_period is not implemented in Weft yet");
    }

    /** {@code MPI_CartParms_get_coord} (not implemented in Weft yet). */
    public int getCoord(int value) {
        throw new UnsupportedOperationException("MPI_CartParms_get_coord is not implemented in Weft yet");
    }
}
