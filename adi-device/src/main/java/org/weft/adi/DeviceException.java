package org.weft.adi;

/**
 * An error the device reports to the layer above, carrying its MPI error class. Unchecked inside Weft;
 * the {@code mpi} facade turns it into {@code mpi.MPIException} and applies the communicator's
 * error handler.
 */
public final class DeviceException extends RuntimeException {
    private final int errorClass;

    public DeviceException(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public DeviceException(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    public int errorClass() {
        return errorClass;
    }
}
