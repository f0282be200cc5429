package mpi;

import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.ProbeResult;
import org.weft.adi.Ranks;
import org.weft.core.comm.Communicator;

/**
 * The status of a completed receive or probe ({@code MPI_Status}): source (communicator rank), tag, error,
 * cancellation and the number of bytes, from which {@link #getCount} derives the count of a datatype.
 */
public final class Status {
    private int source;
    private int tag;
    private int error;
    private boolean cancelled;
    private long bytes;
    private int index = Ranks.UNDEFINED;
    /** Why the operation failed, as the device said (e.g. the peer lost), or null. */
    private String failure;

    Status(int source, int tag, int error, boolean cancelled, long bytes) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.bytes = bytes;
    }

    /** The status of an operation on a null or inactive request ({@code MPI_STATUS} "empty"). */
    static Status empty() {
        return new Status(Ranks.ANY_SOURCE, Ranks.ANY_TAG, ErrorClass.SUCCESS, false, 0);
    }

    /** The status of a completed device request, with the source translated to a rank of {@code comm}. */
    static Status of(DeviceRequest request, Communicator comm) {
        Status status = new Status(comm.fromWorld(request.source()), request.tag(), request.error(),
                request.isCancelled(), request.byteCount());
        status.failure = request.failure();
        return status;
    }

    /** Why the operation failed, as the device said, or null. */
    String failure() {
        return failure;
    }

    /**
     * The status of {@code request}, a completed receive of {@code call}, whose status error is raised through
     * {@code comm}'s error handler. The check reads the request, not a status made first, so that the status escapes
     * only through the return: once the JIT inlines the API method into a caller that drops it, none is made.
     */
    static Status ofReceived(DeviceRequest request, Communicator comm, String call) throws MPIException {
        if (request.error() != ErrorClass.SUCCESS) {
            throw Errors.raise(comm, call, Request.statusError(of(request, comm)));
        }
        return of(request, comm);
    }

    static Status of(ProbeResult probe, Communicator comm) {
        return new Status(comm.fromWorld(probe.source()), probe.tag(), ErrorClass.SUCCESS, false, probe.byteCount());
    }

    /** The bytes the operation moved. */
    long bytes() {
        return bytes;
    }

    Status withIndex(int index) {
        this.index = index;
        return this;
    }

    /** {@code MPI_Get_count}: items of {@code datatype} received, or {@code MPI.UNDEFINED} if not whole. */
    public int getCount(Datatype datatype) throws MPIException {
        return defined(Datatype.checkedDescriptor(datatype, "MPI_Get_count").countOf(bytes));
    }

    /** {@code MPI_Test_cancelled}. */
    public boolean isCancelled() throws MPIException {
        return cancelled;
    }

    /**
     * {@code MPI_Get_elements}: basic elements received (a vector of 3 ints counts 3 per item; a complex number
     * is one element), or {@code MPI.UNDEFINED} if the bytes end inside an element.
     */
    public int getElements(Datatype datatype) throws MPIException {
        return defined(Datatype.checkedDescriptor(datatype, "MPI_Get_elements").elementsOf(bytes));
    }

    /** {@code MPI_Get_elements_x}. */
    public Count getElementsX(Datatype datatype) throws MPIException {
        long elements = Datatype.checkedDescriptor(datatype, "MPI_Get_elements_x").elementsOf(bytes);
        return new Count(elements < 0 ? Ranks.UNDEFINED : elements);
    }

    /** {@code MPI_Status_set_elements}: as if {@code count} basic elements of {@code datatype} had arrived. */
    public void setElements(Datatype datatype, int count) throws MPIException {
        bytes = Datatype.checkedDescriptor(datatype, "MPI_Status_set_elements").bytesOfElements(count);
    }

    /** {@code MPI_Status_set_elements_x}. */
    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        bytes = Datatype.checkedDescriptor(datatype, "MPI_Status_set_elements_x").bytesOfElements(count.getCount());
    }

    private static int defined(long value) {
        return value < 0 ? Ranks.UNDEFINED : Math.toIntExact(value);
    }

    /** {@code MPI_Status_set_cancelled}. */
    public void setCancelled(boolean flag) throws MPIException {
        cancelled = flag;
    }

    /** {@code MPI_SOURCE}: the sender's rank in the communicator ({@code PROC_NULL} for a null receive). */
    public int getSource() {
        return source;
    }

    /** {@code MPI_TAG}. */
    public int getTag() {
        return tag;
    }

    /** {@code MPI_ERROR}: the error class of this operation. */
    public int getError() {
        return error;
    }

    /** The index of the request this status belongs to ({@code waitAnyStatus}, {@code testAnyStatus}). */
    public int getIndex() {
        return index;
    }

    long byteCount() {
        return bytes;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + "]";
    }
}
