package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.adi.SendMode;
import org.weft.core.coll.op.Combiner;

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
    private final Device device;
    private final int context;
    private final MemorySegment memory;
    /** A dynamic window's attached memory (then {@link #memory} is empty), else {@code null}. */
    private final AttachedMemory attached;
    private final MemorySegment inbox = MemorySegment.ofArray(new byte[RmaFrame.REQUEST_LIMIT]);
    private final TargetLocks locks = new TargetLocks();
    private final AccumulateOp.Combiners combiners = new AccumulateOp.Combiners();
    private final TargetLocks.Grant grant = this::reply;
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
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
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this);
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

    /** Stops the thread: no request may be on its way (the window's free is collective and synchronises first). */
    void close() {
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
            default -> access(origin, frame, kind, replyTag);
        }
    }

    /** A put, get, accumulate or compare-and-swap on the window's memory. */
    private void access(int origin, MemorySegment frame, int kind, int replyTag) {
        MemorySegment body = body(origin, frame);
        int runs = RmaFrame.runs(frame);
        MemorySegment data = body.asSlice((long) runs * RmaFrame.RUN, RmaFrame.dataBytes(frame));
        long offset = RmaFrame.targetOffset(frame);
        MemorySegment target = memory;
        if (attached != null) { // a dynamic window: the attached piece that holds the first byte
            AttachedMemory.Piece piece = attached.find(offset);
            target = piece == null ? empty : piece.memory();
            offset -= piece == null ? 0 : piece.base();
        }
        Region region = new Region(target, offset, RmaFrame.targetCount(frame), RmaFrame.extent(frame), body, runs);
        try {
            apply(origin, frame, kind, replyTag, region, data);
        } catch (IndexOutOfBoundsException e) {
            if (attached == null) {
                throw e; // the origin checked the range: a bug, not the program's
            }
            outsideAttached(origin, kind, replyTag, region, RmaFrame.targetOffset(frame));
        }
        VarHandle.releaseFence(); // the program's own threads read the window after the next synchronisation
    }

    private void apply(int origin, MemorySegment frame, int kind, int replyTag, Region region, MemorySegment data) {
        switch (kind) {
            case RmaFrame.PUT -> region.copy(region.memory(), data, true);
            case RmaFrame.GET -> sendBack(origin, replyTag, region);
            case RmaFrame.ACCUMULATE -> accumulate(frame, region, data);
            case RmaFrame.GET_ACCUMULATE -> {
                sendBack(origin, replyTag, region);
                accumulate(frame, region, data);
            }
            case RmaFrame.COMPARE_AND_SWAP -> compareAndSwap(origin, replyTag, region, data);
            default -> throw new IllegalStateException("unknown one-sided request " + kind);
        }
    }

    /**
     * An access to a dynamic window beyond the memory attached at this process (erroneous in MPI; only the target
     * can tell, as attach is local): dropped, with a line naming it; a read gets zeros, so its origin does not wait
     * for ever.
     */
    private void outsideAttached(int origin, int kind, int replyTag, Region region, long displacement) {
        System.err.println("weft: rank " + device.rank() + ": a one-sided access from rank " + origin + " at"
                + " displacement " + displacement + " of a dynamic window lies outside the memory attached here;"
                + " dropped");
        if (kind == RmaFrame.GET || kind == RmaFrame.GET_ACCUMULATE || kind == RmaFrame.COMPARE_AND_SWAP) {
            MemorySegment zeros = replyStaging(region.bytes());
            zeros.fill((byte) 0);
            send(zeros, origin, replyTag);
        }
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

    private void sendBack(int origin, int replyTag, Region region) {
        MemorySegment out = replyStaging(region.bytes());
        region.copy(region.memory(), out, false);
        send(out, origin, replyTag);
    }

    private void accumulate(MemorySegment frame, Region region, MemorySegment data) {
        AccumulateOp op = AccumulateOp.of(RmaFrame.opOrLock(frame));
        if (op == AccumulateOp.NO_OP) {
            return; // no origin data: a get-accumulate that only reads
        }
        int baseType = RmaFrame.baseType(frame);
        if (baseType >= AccumulateOp.PAIR_CODE) {
            accumulatePairs(op, baseType, region, data);
            return;
        }
        long position = 0;
        for (int item = 0; item < region.count; item++) {
            for (int r = 0; r < region.runs; r++) {
                long length = RmaFrame.runLength(region.body, r);
                int elementBytes = RmaFrame.runElementBytes(region.body, r);
                Combiner combiner = combiners.combiner(op, baseType, elementBytes);
                combiner.combine(data.asSlice(position, length), region.memory().asSlice(region.at(item, r), length),
                        Math.toIntExact(length / elementBytes));
                position += length;
            }
        }
    }

    /**
     * MINLOC or MAXLOC on pairs: the target's records gathered run after run are packed records (value, then
     * index), as the origin sent them; combined so, and put back.
     */
    private void accumulatePairs(AccumulateOp op, int baseType, Region region, MemorySegment data) {
        long bytes = region.bytes();
        MemorySegment packed = pairStaging(bytes);
        long position = 0;
        for (int item = 0; item < region.count; item++) {
            for (int r = 0; r < region.runs; r++) {
                long length = RmaFrame.runLength(region.body, r);
                MemorySegment.copy(region.memory(), region.at(item, r), packed, position, length);
                position += length;
            }
        }
        Combiner combiner = combiners.combiner(op, baseType, 0);
        int recordBytes = org.weft.core.datatype.BaseType.values()[baseType - AccumulateOp.PAIR_CODE].bytes()
                + Integer.BYTES; // a packed record: the value, then the int index

        combiner.combine(data.asSlice(0, bytes), packed, Math.toIntExact(bytes / recordBytes));
        position = 0;
        for (int item = 0; item < region.count; item++) {
            for (int r = 0; r < region.runs; r++) {
                long length = RmaFrame.runLength(region.body, r);
                MemorySegment.copy(packed, position, region.memory(), region.at(item, r), length);
                position += length;
            }
        }
    }

    private MemorySegment pairStaging(long bytes) {
        if (pairStaging == null || pairStaging.byteSize() < bytes) {
            pairStaging = MemorySegment.ofArray(new byte[Math.toIntExact(Math.max(bytes, 256))]);
        }
        return pairStaging.asSlice(0, bytes);
    }

    /** The data holds the new value then the value to compare with; one element of one run. */
    private void compareAndSwap(int origin, int replyTag, Region region, MemorySegment data) {
        long bytes = region.bytes();
        MemorySegment target = region.memory().asSlice(region.at(0, 0), bytes);
        MemorySegment old = replyStaging(bytes);
        old.copyFrom(target);
        if (target.mismatch(data.asSlice(bytes, bytes)) < 0) {
            target.copyFrom(data.asSlice(0, bytes));
        }
        send(old, origin, replyTag);
    }

    /** Where pairs are gathered for MINLOC and MAXLOC; grown as needed, used by the service thread only. */
    private MemorySegment pairStaging;

    private MemorySegment replyStaging(long bytes) {
        // The reply's bytes are read by the send, which completes before the next request is served.
        if (replies.byteSize() < bytes) {
            replies = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
        }
        return replies.asSlice(0, bytes);
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

    /** Where a request's target datatype lies in the window: {@code count} items of the runs from an offset. */
    /** Where an access acts: {@code memory} (the window's, or an attached piece's) from {@code offset}. */
    private record Region(MemorySegment memory, long offset, int count, long extent, MemorySegment body, int runs) {
        long at(int item, int run) {
            return offset + item * extent + RmaFrame.runOffset(body, run);
        }

        long bytes() {
            long bytes = 0;
            for (int r = 0; r < runs; r++) {
                bytes += RmaFrame.runLength(body, r);
            }
            return bytes * count;
        }

        /** Copies packed data into the region ({@code toWindow}) or the region into packed data. */
        void copy(MemorySegment window, MemorySegment packed, boolean toWindow) {
            long position = 0;
            for (int item = 0; item < count; item++) {
                for (int r = 0; r < runs; r++) {
                    long length = RmaFrame.runLength(body, r);
                    if (toWindow) {
                        MemorySegment.copy(packed, position, window, at(item, r), length);
                    } else {
                        MemorySegment.copy(window, at(item, r), packed, position, length);
                    }
                    position += length;
                }
            }
        }
    }
}
