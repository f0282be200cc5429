package mpi;

import java.util.function.UnaryOperator;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.StagedReceive;

/**
 * A persistent request ({@code MPI_Send_init}, {@code MPI_Recv_init}, …): arguments are checked and the buffer
 * mapped once; each {@link #start()} starts the operation again. Stays valid (not null) until freed.
 */
public final class Prequest extends Request {
    private final UnaryOperator<DeviceRequest> starter;
    private boolean freed;
    /** The request of the last start, handed back to the device at the next start so that it can reuse it. */
    private DeviceRequest last;

    /** @param starter starts the operation again, given the previous start's request ({@code null} the first time) */
    Prequest(Communicator comm, UnaryOperator<DeviceRequest> starter) {
        this(comm, starter, null);
    }

    /** @param staged unpacks a staged receive after each completion ({@code null} if the data lands in place) */
    Prequest(Communicator comm, UnaryOperator<DeviceRequest> starter, StagedReceive staged) {
        super(comm, null, staged);
        this.starter = starter;
    }

    @Override
    boolean isPersistentAndLive() {
        return !freed;
    }

    /** Keeps the taken request: the next {@link #start} hands it to the device to be reused. */
    @Override
    void release(DeviceRequest r) {
    }

    /** {@code MPI_Request_free}. */
    @Override
    public void free() throws MPIException {
        freed = true;
        active = null;
    }

    /** {@code MPI_Start}: {@code ERR_REQUEST} if the request is freed or still active. */
    public void start() throws MPIException {
        if (freed) { // a freed request is MPI_REQUEST_NULL, which has no communicator
            throw Errors.onWorld("MPI_Start", ErrorClass.ERR_REQUEST, "the persistent request has been freed");
        }
        if (active != null) {
            throw Errors.raise(comm, "MPI_Start", new DeviceException(ErrorClass.ERR_REQUEST,
                    "the persistent request is still active (wait for it before starting it again)"));
        }
        try {
            active = starter.apply(last);
            last = active;
        } catch (DeviceException e) {
            throw Errors.raise(comm, "MPI_Start", e);
        }
    }

    /** {@code MPI_Startall}. */
    public static void startAll(Prequest[] requests) throws MPIException {
        for (Prequest r : requests) {
            r.start();
        }
    }
}
