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
        return new Status(comm.fromWorld(request.source()), request.tag(), request.error(), request.isCancelled(),
                request.byteCount());
    }

    static Status of(ProbeResult probe, Communicator comm) {
        return new Status(comm.fromWorld(probe.source()), probe.tag(), ErrorClass.SUCCESS, false, probe.byteCount());
    }

    Status withIndex(int index) {
        this.index = index;
        return this;
    }

    /** {@code MPI_Get_count}: items of {@code datatype} received, or {@code MPI.UNDEFINED} if not whole. */
    public int getCount(Datatype datatype) throws MPIException {
        int size = Datatype.checkedByteSize(datatype, "MPI_Get_count");
        return bytes % size == 0 ? Math.toIntExact(bytes / size) : Ranks.UNDEFINED;
    }

    /** {@code MPI_Test_cancelled}. */
    public boolean isCancelled() throws MPIException {
        return cancelled;
    }

    /** {@code MPI_Get_elements}: basic elements received (whole items for predefined types). */
    public int getElements(Datatype datatype) throws MPIException {
        int size = Datatype.checkedByteSize(datatype, "MPI_Get_elements");
        return bytes % size == 0 ? Math.toIntExact(bytes / size) : Ranks.UNDEFINED;
    }

    /** {@code MPI_Get_elements_x}. */
    public Count getElementsX(Datatype datatype) throws MPIException {
        int size = Datatype.checkedByteSize(datatype, "MPI_Get_elements_x");
        return new Count(bytes % size == 0 ? bytes / size : Ranks.UNDEFINED);
    }

    /** {@code MPI_Status_set_elements}. */
    public void setElements(Datatype datatype, int count) throws MPIException {
        bytes = (long) count * Datatype.checkedByteSize(datatype, "MPI_Status_set_elements");
    }

    /** {@code MPI_Status_set_elements_x}. */
    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        bytes = count.getCount() * Datatype.checkedByteSize(datatype, "MPI_Status_set_elements_x");
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
