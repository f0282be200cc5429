package mpi;

/** GraphParms of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class GraphParms {
    GraphParms() {
    }

    /** {@code MPI_GraphParms_get_index_count} (not implemented in Weft yet). */
    public int getIndexCount() {
        throw new UnsupportedOperationException("MPI_GraphParms_get_index_count is not implemented in Weft yet");
    }

    /** {@code MPI_GraphParms_get_index} (not implemented in Weft yet). */
    public int getIndex(int value) {
        throw new UnsupportedOperationException("MPI_GraphParms_get_index is not implemented in Weft yet");
    }

    /** {@code MPI_GraphParms_get_edge_count} (not implemented in Weft yet). */
    public int getEdgeCount() {
        throw new UnsupportedOperationException("MPI_GraphParms_get_edge_count is not implemented in Weft yet");
    }

    /** {@code MPI_GraphParms_get_edge} (not implemented in Weft yet). */
    public int getEdge(int value) {
        throw new UnsupportedOperationException("MPI_GraphParms_get_edge is not implemented in Weft yet");
    }
}
