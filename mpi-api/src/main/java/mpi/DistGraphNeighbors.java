package mpi;

/** DistGraphNeighbors of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class DistGraphNeighbors {
    DistGraphNeighbors() {
    }

    /** {@code MPI_DistGraphNeighbors_get_in_degree} (not implemented in Weft yet). */
    public int getInDegree() {
        throw new UnsupportedOperationException("MPI_DistGraphNeighbors_get_in_degree is not implemented in Weft yet");
    }

    /** {@code MPI_DistGraphNeighbors_get_out_degree} (not implemented in Weft yet). */
    public int getOutDegree() {
        throw new UnsupportedOperationException("MPI_DistGraphNeighbors_get_out_degree is not implemented in Weft yet");
    }

    /** {@code MPI_DistGraphNeighbors_is_weighted} (not implemented in Weft yet). */
    public boolean isWeighted() {
        throw new UnsupportedOperationException("MPI_DistGraphNeighbors_is_weighted is not implemented in Weft yet");
    }

    /** {@code MPI_DistGraphNeighbors_get_source} (not implemented in Weft yet). */
    public int getSource(int value) {
        throw new UnsupportedOperationException("MPI_DistGraphNeighbors_get_source is not implemented in Weft yet");
    }

    /** {@code MPI_DistGraphNeighbors_get_source_weight} (not implemented in Weft yet). */
    public int getSourceWeight(int value) {
        throw new UnsupportedOperationException("MPI_DistGraphNeighbors_get_source_weight is not implemented in Weft yet");
    }

    /** {@code MPI_DistGraphNeighbors_get_destination} (not implemented in Weft yet). */
    public int getDestination(int value) {
        throw new UnsupportedOperationException("MPI_DistGraphNeighbors_get_destination is not implemented in Weft yet");
    }

    /** {@code MPI_DistGraphNeighbors_get_destination_weight} (not implemented in Weft yet). */
    public int getDestinationWeight(int value) {
        throw new UnsupportedOperationException("MPI_DistGraphNeighbors_get_destination_weight is not implemented in Weft yet");
    }
}
