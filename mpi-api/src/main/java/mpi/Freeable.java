package mpi;

/** An MPI object that must be freed explicitly. */
public interface Freeable {
    /** Frees the object ({@code MPI_*_free}). */
    void free() throws MPIException;
}
