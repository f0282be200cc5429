package mpi;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.comm.Communicator;
import org.weft.core.error.ErrorMode;
import org.weft.core.error.MpiErrors;

/** Turns core errors into {@link MPIException}s, applying the communicator's error handler. */
final class Errors {
    private Errors() {
    }

    /**
     * Applies {@code comm}'s error handler to {@code error} raised by {@code call}: under
     * {@code ERRORS_ARE_FATAL} reports it and aborts the job (does not return); otherwise returns the exception
     * to throw. Without a communicator the error is returned.
     */
    static MPIException raise(Communicator comm, String call, DeviceException error) {
        if (comm != null && comm.errorMode() == ErrorMode.FATAL) {
            throw comm.runtime().fatal(call, comm, error);
        }
        return new MPIException(error.errorClass(), call + ": " + MpiErrors.name(error.errorClass()) + ": "
                + error.getMessage());
    }

    /** An error that no communicator's handler sees (before Init, on objects without a communicator). */
    static MPIException plain(String call, DeviceException error) {
        return raise(null, call, error);
    }

    static MPIException plain(String call, int errorClass, String message) {
        return raise(null, call, new DeviceException(errorClass, message));
    }

    /** {@code ERR_UNSUPPORTED_OPERATION} for an operation Weft does not implement, through the handler. */
    static MPIException unsupported(Communicator comm, String call) {
        return raise(comm, call, MpiErrors.unsupported(call));
    }

    /** {@code ERR_UNSUPPORTED_OPERATION} for an operation Weft does not implement, thrown directly. */
    static MPIException unsupported(String call) {
        return new MPIException(ErrorClass.ERR_UNSUPPORTED_OPERATION, call + " is not implemented in Weft yet");
    }
}
