package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.weft.adi.Device;
import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.StagedReceive;

/**
 * A nonblocking operation ({@code MPI_Request}). A completed non-persistent request becomes null
 * ({@link #isNull()}); a persistent one ({@link Prequest}) becomes inactive and stays valid until freed.
 * Like MPI requests, one request is used by one thread at a time.
 */
public class Request implements Freeable {
    /** The communicator of the operation: its device, error handler and rank translation. */
    Communicator comm;
    /** The pending device operation; null when the request is null or inactive. */
    DeviceRequest active;
    /** For a receive into staging (a non-contiguous type): unpacks into the user's buffer on completion. */
    private final StagedReceive staged;

    /** {@code MPI_REQUEST_NULL}. */
    Request() {
        this.staged = null;
    }

    Request(Communicator comm, DeviceRequest active) {
        this(comm, active, null);
    }

    /** @param staged what unpacks a staged receive on each completion, {@code null} if the data lands in place */
    Request(Communicator comm, DeviceRequest active, StagedReceive staged) {
        this.comm = comm;
        this.active = active;
        this.staged = staged;
    }

    /** True for a persistent request that has not been freed (it is never null while it lives). */
    boolean isPersistentAndLive() {
        return false;
    }

    /**
     * {@code MPI_Request_free}: the operation, if still pending, completes in the background. Freeing a null
     * request does nothing (as Open MPI's bindings).
     */
    public void free() throws MPIException {
        active = null;
    }

    /** {@code MPI_Cancel}: cancels a receive that has not matched yet; wait for the request afterwards. */
    public final void cancel() throws MPIException {
        DeviceRequest r = active;
        if (r != null && !r.isComplete()) {
            try {
                comm.device().cancel(r);
            } catch (DeviceException e) {
                throw Errors.raise(comm, "MPI_Cancel", e);
            }
        }
    }

    /** True for {@code MPI_REQUEST_NULL}: a completed, freed or never started non-persistent request. */
    public final boolean isNull() {
        return active == null && !isPersistentAndLive();
    }

    /** {@code MPI_Wait}: waits for completion and returns the status. */
    public final Status waitStatus() throws MPIException {
        DeviceRequest r = active;
        if (r == null) {
            return Status.empty();
        }
        if (!r.isComplete()) {
            awaitCompletion();
        }
        return finish("MPI_Wait");
    }

    /** {@code MPI_Wait}, without making a {@link Status} when all went well (no garbage per wait). */
    public final void waitFor() throws MPIException {
        DeviceRequest r = active;
        if (r == null) {
            return;
        }
        if (!r.isComplete()) {
            awaitCompletion();
        }
        finishQuietly("MPI_Wait");
    }

    /** {@code MPI_Test} with status: the status if complete, else {@code null}. */
    public final Status testStatus() throws MPIException {
        return poll() ? finish("MPI_Test") : null;
    }

    /** {@code MPI_Request_get_status}: the status if complete (the request stays as it is), else null. */
    public final Status getStatus() throws MPIException {
        DeviceRequest r = active;
        if (r == null) {
            return Status.empty();
        }
        return poll() ? Status.of(r, comm) : null;
    }

    /** {@code MPI_Test}, without making a {@link Status} when all went well. */
    public final boolean test() throws MPIException {
        if (!poll()) {
            return false;
        }
        if (active != null) {
            finishQuietly("MPI_Test");
        }
        return true;
    }

    /** Completion check with one progress pass when not yet complete. */
    private boolean poll() {
        DeviceRequest r = active;
        if (r == null || r.isComplete()) {
            return true;
        }
        comm.device().progress();
        return advance();
    }

    boolean isComplete() {
        DeviceRequest r = active;
        return r == null || r.isComplete() || advance();
    }

    /**
     * The hook for operations that run above the device (nonblocking collectives): moves the operation on as far
     * as it goes without waiting and tells whether it is complete. Only called while the request is active.
     */
    boolean advance() {
        return active.isComplete();
    }

    /** Waits until the active operation is complete (only called while it is not). */
    void awaitCompletion() {
        comm.device().await(active);
    }

    /** Takes the status of the completed request, makes it null (or inactive) and raises a status error. */
    private Status finish(String call) throws MPIException {
        Status status = take();
        if (status.getError() != ErrorClass.SUCCESS) {
            throw Errors.raise(comm, call, statusError(status));
        }
        return status;
    }

    /**
     * Takes the completed active request without a status: a {@code Status} is made only for the error it
     * raises (when the operation failed).
     */
    private void finishQuietly(String call) throws MPIException {
        DeviceRequest r = active;
        if (r.error() != ErrorClass.SUCCESS) {
            finish(call);
            return;
        }
        deactivate(r);
    }

    /** The status of the completed (or null) request; the request becomes null or inactive. */
    Status take() {
        DeviceRequest r = active;
        if (r == null) {
            return Status.empty();
        }
        Status status = Status.of(r, comm);
        deactivate(r);
        return status;
    }

    /**
     * The completed {@code r} is taken: its staged data is unpacked, the request becomes null or inactive and
     * {@code r} is {@linkplain #release released} (read no more after this).
     */
    private void deactivate(DeviceRequest r) {
        active = null;
        if (staged != null) {
            staged.finish(r.byteCount());
        }
        release(r);
    }

    /** Hands the taken {@code r} back to the device, which may reuse it for this thread's next operation. */
    void release(DeviceRequest r) {
        comm.device().retire(r);
    }

    static DeviceException statusError(Status status) {
        String detail = status.failure() != null ? "the operation failed: " + status.failure()
                : status.getError() == ErrorClass.ERR_TRUNCATE
                ? "message truncated: it was longer than the receive buffer (" + status.byteCount() + " bytes)"
                : "the operation failed";
        return new DeviceException(status.getError(), detail);
    }

    /** {@code MPI_Waitany} with status; the index is in {@link Status#getIndex()} (UNDEFINED if all null). */
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return Status.empty().withIndex(Ranks.UNDEFINED);
        }
        int index = awaitAny(requests, device);
        return requests[index].finish("MPI_Waitany").withIndex(index);
    }

    /** {@code MPI_Waitany}: index of a completed request, {@code MPI.UNDEFINED} if all are null. */
    public static int waitAny(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return Ranks.UNDEFINED;
        }
        int index = awaitAny(requests, device);
        requests[index].finishQuietly("MPI_Waitany");
        return index;
    }

    /** {@code MPI_Testany} with status: null when no active request completed. */
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return Status.empty().withIndex(Ranks.UNDEFINED);
        }
        int index = testAny(requests, device);
        return index == Ranks.UNDEFINED ? null : requests[index].finish("MPI_Testany").withIndex(index);
    }

    /** {@code MPI_Testany}: index of a completed request, or {@code MPI.UNDEFINED}. */
    public static int testAny(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return Ranks.UNDEFINED;
        }
        int index = testAny(requests, device);
        if (index != Ranks.UNDEFINED) {
            requests[index].finishQuietly("MPI_Testany");
        }
        return index;
    }

    /** {@code MPI_Waitall} with statuses; {@code ERR_IN_STATUS} if any operation failed. */
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        awaitAll(requests);
        return takeAll(requests, "MPI_Waitall");
    }

    /** {@code MPI_Waitall}, making statuses only to report a failure (no garbage per call for the statuses). */
    public static void waitAll(Request[] requests) throws MPIException {
        awaitAll(requests);
        finishAll(requests, "MPI_Waitall");
    }

    /** {@code MPI_Testall} with statuses: null unless every request completed. */
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device != null && !testAll(requests, device)) {
            return null;
        }
        return takeAll(requests, "MPI_Testall");
    }

    /** {@code MPI_Testall}, making statuses only to report a failure. */
    public static boolean testAll(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return true;
        }
        if (!testAll(requests, device)) {
            return false;
        }
        finishAll(requests, "MPI_Testall");
        return true;
    }

    /** {@code MPI_Waitsome} with statuses (indices in {@link Status#getIndex()}); null if all are null. */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return null;
        }
        awaitAny(requests, device);
        return takeCompleted(requests, "MPI_Waitsome");
    }

    /** {@code MPI_Waitsome}: indices of the completed requests; null if all are null. */
    public static int[] waitSome(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return null;
        }
        awaitAny(requests, device);
        return finishCompleted(requests, "MPI_Waitsome");
    }

    /** {@code MPI_Testsome} with statuses: possibly empty; null if all are null. */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return null;
        }
        device.progress();
        return takeCompleted(requests, "MPI_Testsome");
    }

    /** {@code MPI_Testsome}: indices of the completed requests; null if all are null. */
    public static int[] testSome(Request[] requests) throws MPIException {
        Device device = deviceOf(requests);
        if (device == null) {
            return null;
        }
        device.progress();
        return finishCompleted(requests, "MPI_Testsome");
    }

    /** The device of the first active request, or null when there is none. */
    private static Device deviceOf(Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.active != null) {
                return r.comm.device();
            }
        }
        return null;
    }

    /**
     * Waits until every request is complete, one after the other: progress is the whole device's, so waiting for
     * each in turn waits for all, and a device request is its own completion test (no lambda made per call).
     */
    private static void awaitAll(Request[] requests) {
        for (Request r : requests) {
            if (r != null && !r.isComplete()) {
                r.awaitCompletion();
            }
        }
    }

    /** Waits until an active request is complete; returns its index (there is an active request). */
    private static int awaitAny(Request[] requests, Device device) {
        int index = completedIndex(requests);
        if (index == Ranks.UNDEFINED) {
            device.await(() -> completedIndex(requests) != Ranks.UNDEFINED);
            index = completedIndex(requests);
        }
        return index;
    }

    /** The index of a complete active request after at most one progress pass, or UNDEFINED. */
    private static int testAny(Request[] requests, Device device) {
        int index = completedIndex(requests);
        if (index == Ranks.UNDEFINED) {
            device.progress();
            index = completedIndex(requests);
        }
        return index;
    }

    /** Whether every request is complete, after at most one progress pass. */
    private static boolean testAll(Request[] requests, Device device) {
        if (allComplete(requests)) {
            return true;
        }
        device.progress();
        return allComplete(requests);
    }

    private static int completedIndex(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.active != null && (r.active.isComplete() || r.advance())) {
                return i;
            }
        }
        return Ranks.UNDEFINED;
    }

    private static boolean allComplete(Request[] requests) {
        for (Request r : requests) {
            if (r != null && !r.isComplete()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes every request of a completed waitall or testall; statuses are made only when an operation failed,
     * to raise {@code ERR_IN_STATUS} with them (as {@link #waitAllStatus} does).
     */
    private static void finishAll(Request[] requests, String call) throws MPIException {
        for (Request r : requests) {
            if (r != null && r.active != null && r.active.error() != ErrorClass.SUCCESS) {
                takeAll(requests, call);
                return;
            }
        }
        for (Request r : requests) {
            if (r != null && r.active != null) {
                r.deactivate(r.active);
            }
        }
    }

    private static Status[] takeAll(Request[] requests, String call) throws MPIException {
        Status[] statuses = new Status[requests.length];
        Request failed = null;
        for (int i = 0; i < requests.length; i++) {
            statuses[i] = requests[i] == null ? Status.empty() : requests[i].take();
            statuses[i].withIndex(i);
            if (statuses[i].getError() != ErrorClass.SUCCESS && failed == null) {
                failed = requests[i];
            }
        }
        if (failed != null) {
            throw Errors.raise(failed.comm, call, inStatus(statuses));
        }
        return statuses;
    }

    /**
     * Takes the completed requests and returns their indices, making statuses only when one failed (then
     * {@link #takeCompleted} takes them and raises {@code ERR_IN_STATUS}).
     */
    private static int[] finishCompleted(Request[] requests, String call) throws MPIException {
        int[] done = new int[requests.length];
        int count = 0;
        boolean failed = false;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.active != null && (r.active.isComplete() || r.advance())) {
                failed |= r.active.error() != ErrorClass.SUCCESS;
                done[count++] = i;
            }
        }
        if (failed) {
            return indices(takeCompleted(requests, call)); // raises ERR_IN_STATUS with the statuses
        }
        for (int k = 0; k < count; k++) {
            Request r = requests[done[k]];
            r.deactivate(r.active);
        }
        return Arrays.copyOf(done, count);
    }

    private static int[] indices(Status[] statuses) {
        int[] result = new int[statuses.length];
        for (int i = 0; i < statuses.length; i++) {
            result[i] = statuses[i].getIndex();
        }
        return result;
    }

    private static Status[] takeCompleted(Request[] requests, String call) throws MPIException {
        List<Status> done = new ArrayList<>();
        Request failed = null;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.active != null && (r.active.isComplete() || r.advance())) {
                Status s = r.take().withIndex(i);
                done.add(s);
                if (s.getError() != ErrorClass.SUCCESS && failed == null) {
                    failed = r;
                }
            }
        }
        Status[] statuses = done.toArray(new Status[0]);
        if (failed != null) {
            throw Errors.raise(failed.comm, call, inStatus(statuses));
        }
        return statuses;
    }

    private static DeviceException inStatus(Status[] statuses) {
        StringBuilder detail = new StringBuilder("an operation failed; see the statuses:");
        for (Status s : statuses) {
            if (s.getError() != ErrorClass.SUCCESS) {
                detail.append(" request ").append(s.getIndex()).append(" has error class ").append(s.getError());
            }
        }
        return new DeviceException(ErrorClass.ERR_IN_STATUS, detail.toString());
    }
}
