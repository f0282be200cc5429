package org.weft.adi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * One pending operation of the device and, once complete, its status.
 *
 * <p>Lifecycle: the device creates the request, some thread (the caller's progress pass or a module's own
 * delivery thread) calls {@link #complete} exactly once, and the owner reads the status after
 * {@link #isComplete()} returned true. Completion is published through a volatile write, so status fields
 * written before {@code complete} are visible to any thread that saw {@code isComplete() == true}.
 *
 * <p>Status fields: {@code source} is the sender's world rank, {@code byteCount} the bytes placed in
 * the receive buffer, {@code error} an {@link ErrorClass} ({@code SUCCESS} when none).
 */
public class DeviceRequest implements BooleanSupplier {
    private static final VarHandle COMPLETE;

    static {
        try {
            COMPLETE = MethodHandles.lookup().findVarHandle(DeviceRequest.class, "complete", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile boolean complete;
    private int source = Ranks.ANY_SOURCE;
    private int tag = Ranks.ANY_TAG;
    private long byteCount;
    private int error = ErrorClass.SUCCESS;
    private boolean cancelled;
    /** Why the operation failed, in words (e.g. which peer was lost), when the device knows; else null. */
    private String failure;

    /** A request that is complete from the start (e.g. an operation on {@code PROC_NULL}). */
    public static DeviceRequest completed(int source, int tag) {
        DeviceRequest request = new DeviceRequest();
        request.complete(source, tag, 0, ErrorClass.SUCCESS);
        return request;
    }

    public final boolean isComplete() {
        return complete;
    }

    /** {@link #isComplete()}, so that a wait on one request needs no lambda. */
    @Override
    public final boolean getAsBoolean() {
        return complete;
    }

    /** Records the status and publishes completion; called once by the device. */
    public void complete(int source, int tag, long byteCount, int error) {
        this.source = source;
        this.tag = tag;
        this.byteCount = byteCount;
        this.error = error;
        if (completedByItsOnlyWaiter()) {
            COMPLETE.setRelease(this, true); // the waiter is this thread: program order shows it, nobody to wake
            return;
        }
        this.complete = true; // volatile: ordered before onComplete's look for parked waiters
        onComplete();
    }

    /**
     * Completes the request as failed with {@code error} and {@code why} (naming, e.g., the peer whose connection
     * was lost), which the error raised for it carries.
     */
    public void completeFailed(int source, int tag, int error, String why) {
        this.failure = why;
        complete(source, tag, 0, error);
    }

    /**
     * True when the calling thread is the only one that will ever wait for this request (a device's request for
     * one thread's blocking calls, completed during that thread's own send or poll): completion then needs no
     * fence and wakes nobody.
     */
    protected boolean completedByItsOnlyWaiter() {
        return false;
    }

    /** Completes the request as cancelled ({@code MPI_Cancel} succeeded). */
    public void completeCancelled() {
        this.cancelled = true;
        this.complete = true;
        onComplete();
    }

    /**
     * Makes a completed request pending again, for a device that reuses its request objects (blocking calls).
     * Only for a request nobody else holds; publish it to other threads only after this call.
     */
    protected void reuse() {
        source = Ranks.ANY_SOURCE;
        tag = Ranks.ANY_TAG;
        byteCount = 0;
        error = ErrorClass.SUCCESS;
        cancelled = false;
        failure = null;
        COMPLETE.setRelease(this, false); // not yet shared: a volatile store's fence would buy nothing here
    }

    /** Hook for devices that wake waiters on completion. */
    protected void onComplete() {
    }

    public final int source() {
        return source;
    }

    public final int tag() {
        return tag;
    }

    public final long byteCount() {
        return byteCount;
    }

    public final int error() {
        return error;
    }

    /** Why the operation failed, when the device said ({@link #completeFailed}); else null. */
    public final String failure() {
        return failure;
    }

    public final boolean isCancelled() {
        return cancelled;
    }
}
