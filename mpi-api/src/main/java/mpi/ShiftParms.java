package mpi;

/** ShiftParms of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class ShiftParms {
    ShiftParms() {
    }

    /** {@code MPI_ShiftParms_get_rank_source} (not implemented in Weft yet). */
    public int getRankSource() {
        throw new UnsupportedOperationException("MPI_ShiftParms_get_rank_source is not implemented in Weft yet");
    }

    /** {@code MPI_ShiftParms_get_rank_dest} (not implemented in Weft yet). */
    public int getRankDest() {
        throw new UnsupportedOperationException("MPI_ShiftParms_get_rank_dest is not implemented in Weft yet");
    }
}
