package org.weft.core.rma;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.adi.SendMode;

/**
 * The target side of one window: a daemon thread that receives the origins' requests ({@link RmaFrame}) in the
 * window's private context and acts on the window's memory, whatever this process's own threads are doing — so a
 * passive-target epoch completes while the target computes without calling MPI. The thread waits in
 * {@link Device#awaitInBackground}: it makes progress for the whole process while no other thread waits, and backs
 * off to parking through the device's idle strategy when nothing arrives; a request delivered by another thread's
 * progress pass wakes it.
 *
 * <p>One thread applies every request to the window in arrival order, so accumulates are atomic per element
 * against each other (MPI 3.1 §11.7.1), and each origin's operations are applied in the order it issued them —
 * which is how a flush, an unlock or a fence knows that everything before it is done: its reply comes after.
 */
final class WindowService implements Runnable {
    /** Window services of this process started and not yet closed. */
    private static final java.util.concurrent.atomic.AtomicInteger RUNNING =
            new java.util.concurrent.atomic.AtomicInteger();

    private final Device device;
    private final int context;
    private final MemorySegment memory;
    /** A dynamic window's attached memory (then {@link #memory} is empty), else {@code null}. */
    private final AttachedMemory attached;
    private final MemorySegment inbox = MemorySegment.ofArray(new byte[RmaFrame.REQUEST_LIMIT]);
    private final TargetLocks locks = new TargetLocks();
    private final TargetLocks.Grant grant = this::reply;
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    private final WindowAccess access;
    private final Thread thread;
    private MemorySegment staging = MemorySegment.ofArray(new byte[0]);
    private MemorySegment replies = MemorySegment.ofArray(new byte[0]);
    private volatile DeviceRequest pending;
    private volatile boolean closed;

    WindowService(Device device, int context, MemorySegment memory, AttachedMemory attached, String name) {
        this.device = device;
        this.context = context;
        this.memory = memory;
        this.attached = attached;
        this.access = new Replies(device.rank());
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this);
        RUNNING.incrementAndGet();
        thread.start();
    }

    @Override
    public void run() {
        try {
            while (!closed) {
                DeviceRequest request = device.irecv(inbox, Ranks.ANY_SOURCE, RmaFrame.REQUEST_TAG, context);
                pending = request;
                if (closed) {
                    device.cancel(request);
                }
                device.awaitInBackground(request); // the program's own waits poll before this thread
                if (request.isCancelled() || closed) {
                    return;
                }
                serve(request.source(), inbox.asSlice(0, request.byteCount()));
            }
        } catch (RuntimeException e) {
            if (!closed) {
                System.err.println("weft: the one-sided service of a window stopped: " + e);
            }
        }
    }

    /**
     * Whether no window of this process has a service thread: an origin's passive-target operation may wait for one
     * at any time, and the thread needs this process's progress (and libmpi's lock, over nativempi) to answer — a
     * native collective that holds up this process's progress asks it.
     */
    static boolean noneRunning() {
        return RUNNING.get() == 0;
    }

    /** Stops the thread: no request may be on its way (the window's free is collective and synchronises first). */
    void close() {
        if (!closed) {
            RUNNING.decrementAndGet();
        }
        closed = true;
        try {
            while (thread.isAlive() && thread != Thread.currentThread()) {
                DeviceRequest request = pending;
                if (request != null) {
                    device.cancel(request);
                }
                thread.join(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serve(int origin, MemorySegment frame) {
        int kind = RmaFrame.kind(frame);
        int replyTag = RmaFrame.replyTag(frame);
        switch (kind) {
            case RmaFrame.LOCK -> locks.request(origin, RmaFrame.opOrLock(frame), replyTag, grant);
            case RmaFrame.UNLOCK -> {
                locks.release(origin, grant);
                reply(origin, replyTag);
            }
            case RmaFrame.FLUSH -> reply(origin, replyTag);
            default -> access(origin, frame);
        }
    }

    /** A put, get, accumulate or compare-and-swap on the window's memory. */
    private void access(int origin, MemorySegment frame) {
        access.access(origin, frame, body(origin, frame), memory, attached);
    }

    /** The body (runs then data): after the header, or the next message from the same origin. */
    private MemorySegment body(int origin, MemorySegment frame) {
        long bytes = RmaFrame.bodyBytes(frame);
        if (RmaFrame.bodyInline(frame)) {
            return frame.asSlice(RmaFrame.HEADER, bytes);
        }
        if (staging.byteSize() < bytes) {
            staging = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
        }
        MemorySegment body = staging.asSlice(0, bytes);
        DeviceRequest received = device.recv(body, origin, RmaFrame.BODY_TAG, context);
        if (received.error() != ErrorClass.SUCCESS || received.byteCount() != bytes) {
            throw new IllegalStateException("a one-sided request's body did not arrive whole");
        }
        return body;
    }

    /** Applies requests; its replies go back to their origins as messages. */
    private final class Replies extends WindowAccess {
        Replies(int rank) {
            super(rank);
        }

        @Override
        MemorySegment replyStaging(long bytes) {
            // The reply's bytes are read by the send, which completes before the next request is served.
            if (replies.byteSize() < bytes) {
                replies = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
            }
            return replies.asSlice(0, bytes);
        }

        @Override
        void reply(MemorySegment data, int origin, int replyTag) {
            send(data, origin, replyTag);
        }
    }

    private void reply(int origin, int replyTag) {
        send(empty, origin, replyTag);
    }

    private void send(MemorySegment data, int origin, int replyTag) {
        int error = device.send(data, origin, replyTag, context, SendMode.STANDARD);
        if (error != ErrorClass.SUCCESS) {
            throw new IllegalStateException("a one-sided reply failed with error class " + error);
        }
    }
}
