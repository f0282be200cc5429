package org.weft.core.error;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;

/**
 * Builds the exceptions the core layer throws for bad arguments. The core layer reports every MPI error as a
 * {@link DeviceException} carrying its error class; the {@code mpi} facade turns it into {@code MPIException}
 * and applies the communicator's error handler.
 */
public final class MpiErrors {
    private MpiErrors() {
    }

    public static DeviceException error(int errorClass, String message) {
        return new DeviceException(errorClass, message);
    }

    /** {@code MPI_ERR_UNSUPPORTED_OPERATION} for an MPI operation Weft does not implement yet. */
    public static DeviceException unsupported(String mpiOperation) {
        return new DeviceException(ErrorClass.ERR_UNSUPPORTED_OPERATION,
                mpiOperation + " is not implemented in Weft yet");
    }

    /** The full MPI name of an error class, e.g. {@code MPI_ERR_TRUNCATE}. */
    public static String name(int errorClass) {
        return switch (errorClass) {
            case ErrorClass.ERR_GROUP -> "MPI_ERR_GROUP";
            case ErrorClass.ERR_OP -> "MPI_ERR_OP";
            case ErrorClass.ERR_TOPOLOGY -> "MPI_ERR_TOPOLOGY";
            case ErrorClass.ERR_DIMS -> "MPI_ERR_DIMS";
            case ErrorClass.ERR_UNKNOWN -> "MPI_ERR_UNKNOWN";
            case ErrorClass.ERR_INFO -> "MPI_ERR_INFO";
            case ErrorClass.ERR_INFO_KEY -> "MPI_ERR_INFO_KEY";
            case ErrorClass.ERR_INFO_VALUE -> "MPI_ERR_INFO_VALUE";
            case ErrorClass.ERR_INFO_NOKEY -> "MPI_ERR_INFO_NOKEY";
            case ErrorClass.ERR_KEYVAL -> "MPI_ERR_KEYVAL";
            case ErrorClass.ERR_NO_MEM -> "MPI_ERR_NO_MEM";
            case ErrorClass.ERR_WIN -> "MPI_ERR_WIN";
            case ErrorClass.ERR_RMA_SYNC -> "MPI_ERR_RMA_SYNC";
            case ErrorClass.ERR_RMA_RANGE -> "MPI_ERR_RMA_RANGE";
            case ErrorClass.ERR_RMA_ATTACH -> "MPI_ERR_RMA_ATTACH";
            case ErrorClass.ERR_RMA_FLAVOR -> "MPI_ERR_RMA_FLAVOR";
            case ErrorClass.ERR_RMA_SHARED -> "MPI_ERR_RMA_SHARED";
            case ErrorClass.ERR_LOCKTYPE -> "MPI_ERR_LOCKTYPE";
            case ErrorClass.ERR_ASSERT -> "MPI_ERR_ASSERT";
            case ErrorClass.ERR_DISP -> "MPI_ERR_DISP";
            case ErrorClass.ERR_SIZE -> "MPI_ERR_SIZE";
            case ErrorClass.ERR_FILE -> "MPI_ERR_FILE";
            case ErrorClass.ERR_ACCESS -> "MPI_ERR_ACCESS";
            case ErrorClass.ERR_AMODE -> "MPI_ERR_AMODE";
            case ErrorClass.ERR_BAD_FILE -> "MPI_ERR_BAD_FILE";
            case ErrorClass.ERR_FILE_EXISTS -> "MPI_ERR_FILE_EXISTS";
            case ErrorClass.ERR_FILE_IN_USE -> "MPI_ERR_FILE_IN_USE";
            case ErrorClass.ERR_IO -> "MPI_ERR_IO";
            case ErrorClass.ERR_NO_SPACE -> "MPI_ERR_NO_SPACE";
            case ErrorClass.ERR_NO_SUCH_FILE -> "MPI_ERR_NO_SUCH_FILE";
            case ErrorClass.ERR_NOT_SAME -> "MPI_ERR_NOT_SAME";
            case ErrorClass.ERR_QUOTA -> "MPI_ERR_QUOTA";
            case ErrorClass.ERR_READ_ONLY -> "MPI_ERR_READ_ONLY";
            case ErrorClass.ERR_UNSUPPORTED_DATAREP -> "MPI_ERR_UNSUPPORTED_DATAREP";
            default -> ErrorClass.name(errorClass);
        };
    }

    /**
     * The message printed before a job is aborted under {@code MPI_ERRORS_ARE_FATAL}: it names the rank, the
     * call, the object it was called on ({@code null}: none worth naming), the communicator whose handler the error
     * was raised on if not that object's ({@code raisedOn}, else {@code null}) and the error class, so that the
     * user sees at once which process failed and why.
     */
    public static String fatalMessage(int worldRank, int worldSize, String call, String object, String raisedOn,
                                      int errorClass, String detail) {
        return "Weft: rank " + worldRank + " of " + worldSize + ": " + call + (object == null ? "" : " on " + object)
                + " failed: " + name(errorClass) + ": " + detail
                + " (" + (raisedOn == null ? "" : "raised on " + raisedOn + ", ")
                + "error handler MPI.ERRORS_ARE_FATAL: aborting the job)";
    }
}
