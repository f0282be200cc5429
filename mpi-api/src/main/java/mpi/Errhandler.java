package mpi;

import org.weft.core.error.ErrorMode;

/** An error handler ({@code MPI_Errhandler}): {@link MPI#ERRORS_ARE_FATAL} or {@link MPI#ERRORS_RETURN}. */
public final class Errhandler {
    private final ErrorMode mode;

    Errhandler(ErrorMode mode) {
        this.mode = mode;
    }

    ErrorMode mode() {
        return mode;
    }

    static Errhandler of(ErrorMode mode) {
        return mode == ErrorMode.FATAL ? MPI.ERRORS_ARE_FATAL : MPI.ERRORS_RETURN;
    }
}
