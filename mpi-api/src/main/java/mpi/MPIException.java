package mpi;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;

/** An MPI error: {@link #getErrorClass()} is the MPI error class ({@code MPI.ERR_*}). */
public final class MPIException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    /** An error with a message and error class {@code MPI.ERR_UNKNOWN}. */
    public MPIException(String message) {
        this(ErrorClass.ERR_UNKNOWN, message);
    }

    /**
     * An error caused by {@code cause}: its error class when it is a Weft device error, else
     * {@code MPI.ERR_UNKNOWN}.
     */
    public MPIException(Throwable cause) {
        super(cause);
        this.errorClass = cause instanceof DeviceException d ? d.errorClass() : ErrorClass.ERR_UNKNOWN;
        this.errorCode = errorClass;
    }

    MPIException(int errorClass, String message) {
        super(message);
        this.errorCode = errorClass;
        this.errorClass = errorClass;
    }

    /** The error code ({@code MPI_Error_code}); in Weft equal to the error class. */
    public int getErrorCode() {
        return errorCode;
    }

    /** The MPI error class ({@code MPI_Error_class}). */
    public int getErrorClass() {
        return errorClass;
    }
}
