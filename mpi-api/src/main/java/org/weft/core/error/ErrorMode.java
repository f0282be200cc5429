package org.weft.core.error;

/** What a communicator does with an error: the two predefined MPI error handlers. */
public enum ErrorMode {
    /** {@code MPI_ERRORS_ARE_FATAL}: report the error and abort the whole job (the default). */
    FATAL,
    /** {@code MPI_ERRORS_RETURN}: hand the error back to the caller (in Java: throw {@code MPIException}). */
    RETURN
}
