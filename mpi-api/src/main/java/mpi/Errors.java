package mpi;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.MpiRuntime;
import org.weft.core.RuntimeBinding;
import org.weft.core.comm.Communicator;
import org.weft.core.error.ErrorMode;
import org.weft.core.error.MpiErrors;
import org.weft.core.io.OpenFile;
import org.weft.core.rma.Window;

/**
 * Turns core errors into {@link MPIException}s through the error handler MPI names for them: the communicator's
 * for a call on a valid communicator; {@code MPI_COMM_WORLD}'s for a call on {@code MPI_COMM_NULL} or a freed
 * communicator, on a null or freed request or message, and for calls on objects without a communicator
 * (datatypes, groups, infos, operations), as MPI-3.1 §8.3 says and Open MPI 4.1 does. Under
 * {@code ERRORS_ARE_FATAL} the error is reported and the job aborted with the error class as its exit code; under
 * {@code ERRORS_RETURN} the exception is returned for the caller to throw.
 */
final class Errors {
    private Errors() {
    }

    /**
     * Applies {@code comm}'s error handler to {@code error} raised by {@code call}: under
     * {@code ERRORS_ARE_FATAL} reports it and aborts the job (does not return); otherwise returns the exception
     * to throw. Without a communicator ({@code null}) {@code MPI_COMM_WORLD}'s handler applies.
     */
    static MPIException raise(Communicator comm, String call, DeviceException error) {
        if (comm == null) {
            return onWorld(call, error);
        }
        if (comm.errorMode() == ErrorMode.FATAL) {
            throw comm.runtime().fatal(call, described(comm), null, error);
        }
        return exception(call, error);
    }

    /**
     * Applies {@code window}'s error handler to {@code error} raised by {@code call}: under
     * {@code ERRORS_ARE_FATAL} (a window's default, MPI 3.1 §8.3.2) reports it and aborts the job; otherwise
     * returns the exception to throw.
     */
    static MPIException raise(Window window, String call, DeviceException error) {
        if (window.errorMode() == ErrorMode.FATAL) {
            String name = window.name();
            throw window.runtime().fatal(call, name.isEmpty() ? "an unnamed window" : name, null, error);
        }
        return exception(call, error);
    }

    /**
     * Applies {@code file}'s error handler to {@code error} raised by {@code call}: under {@code ERRORS_ARE_FATAL}
     * reports it and aborts the job; otherwise ({@code ERRORS_RETURN}, a file's default, MPI 3.1 §13.7) returns
     * the exception to throw.
     */
    static MPIException raise(OpenFile file, String call, DeviceException error) {
        if (file.errorMode() == ErrorMode.FATAL) {
            throw file.runtime().fatal(call, "file " + file.name(), null, error);
        }
        return exception(call, error);
    }

    /**
     * An error with no file to raise it on ({@code MPI_File_open}, {@code MPI_File_delete}): the handler of
     * {@code MPI_FILE_NULL}, which is {@code ERRORS_RETURN} (MPI 3.1 §13.7; Weft's bindings cannot change it).
     */
    static MPIException onFileNull(String call, DeviceException error) {
        return exception(call, error);
    }

    /**
     * Applies {@code MPI_COMM_WORLD}'s error handler of {@code runtime} to {@code error}, raised by {@code call} on
     * {@code object} ({@code null}: a call on no object worth naming). Without a runtime (before {@code MPI_Init},
     * after {@code MPI_Finalize}) there is no handler: the exception is returned.
     */
    static MPIException onWorld(MpiRuntime runtime, String call, String object, DeviceException error) {
        if (runtime != null && runtime.world().errorMode() == ErrorMode.FATAL) {
            throw runtime.fatal(call, object, runtime.world().name(), error);
        }
        return exception(call, error);
    }

    /** An error with no communicator to raise it on: {@code MPI_COMM_WORLD}'s handler (of the calling rank). */
    static MPIException onWorld(String call, DeviceException error) {
        return onWorld(RuntimeBinding.slot().activeRuntime(), call, null, error);
    }

    static MPIException onWorld(String call, int errorClass, String message) {
        return onWorld(call, new DeviceException(errorClass, message));
    }

    /**
     * {@code ERR_COMM} for a call on {@code MPI_COMM_NULL} ({@code freed == null}) or on the freed communicator
     * {@code freed}: raised on {@code MPI_COMM_WORLD} (MPI-3.1 §8.3). The call is named after the facade method
     * the program called, which is all that is known here.
     */
    static MPIException invalidCommunicator(Communicator freed) {
        String call = calledMethod();
        if (freed == null) {
            return onWorld(RuntimeBinding.slot().activeRuntime(), call, "MPI_COMM_NULL",
                    MpiErrors.error(ErrorClass.ERR_COMM, "the communicator is MPI_COMM_NULL"));
        }
        return onWorld(freed.runtime(), call, "a freed communicator",
                MpiErrors.error(ErrorClass.ERR_COMM, described(freed) + " has been freed"));
    }

    /** A communicator for messages: its name, or what it is when it has none (user communicators start unnamed). */
    private static String described(Communicator comm) {
        String name = comm.name();
        return name == null || name.isEmpty() ? "an unnamed communicator" : name;
    }

    /** {@code ERR_UNSUPPORTED_OPERATION} for an operation Weft does not implement, through the handler. */
    static MPIException unsupported(Communicator comm, String call) {
        return raise(comm, call, MpiErrors.unsupported(call));
    }

    /** {@code ERR_UNSUPPORTED_OPERATION} for an operation Weft does not implement, thrown directly. */
    static MPIException unsupported(String call) {
        return new MPIException(ErrorClass.ERR_UNSUPPORTED_OPERATION, call + " is not implemented in Weft yet");
    }

    private static MPIException exception(String call, DeviceException error) {
        return new MPIException(error.errorClass(), call + ": " + MpiErrors.name(error.errorClass()) + ": "
                + error.getMessage());
    }

    /**
     * The facade method the program called, e.g. {@code Comm.getRank}: the outermost frame of this package before
     * the program's own (an error path only; a walk of a few frames).
     */
    private static String calledMethod() {
        return StackWalker.getInstance().walk(frames -> frames
                .takeWhile(f -> f.getClassName().startsWith("mpi."))
                .reduce((inner, outer) -> outer)
                .map(f -> f.getClassName().substring("mpi.".length()) + "." + f.getMethodName())
                .orElse("MPI"));
    }
}
