package org.weft.core.rma;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.SendMode;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.datatype.Typemap;
import org.weft.core.error.MpiErrors;

/**
 * Builds and sends one origin's requests to the window's target services ({@link RmaFrame}), in reused staging,
 * and waits for replies. Used under the window's monitor, so one thread at a time: a header and the body that
 * follows it are never split by another request of this process.
 */
final class OriginRequests {
    private static final int LAST_REPLY_TAG = 1 << 30;

    private final Device device;
    private final int context;
    private final MemorySegment request = MemorySegment.ofArray(new byte[RmaFrame.REQUEST_LIMIT]);
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    private MemorySegment body = MemorySegment.ofArray(new byte[0]);
    private int nextReplyTag = RmaFrame.FIRST_REPLY_TAG;

    OriginRequests(Device device, int context) {
        this.device = device;
        this.context = context;
    }

    /** A tag for the next reply; tags come round after 2^30 requests, long after any reply has arrived. */
    int replyTag() {
        int tag = nextReplyTag;
        nextReplyTag = tag >= LAST_REPLY_TAG ? RmaFrame.FIRST_REPLY_TAG : tag + 1;
        return tag;
    }

    /** Posts the receive of a reply from {@code worldTarget} into {@code into}, before its request goes. */
    DeviceRequest expectReply(int worldTarget, int tag, MemorySegment into) {
        return device.irecv(into, worldTarget, tag, context);
    }

    /** Waits for a reply; {@code ERR_TRUNCATE} and the like if the target's data did not fit. */
    void await(DeviceRequest reply) {
        device.await(reply);
        if (reply.error() != ErrorClass.SUCCESS) {
            throw MpiErrors.error(reply.error(), "the reply of a one-sided operation failed");
        }
    }

    /** A request without data (lock, unlock, flush) and its empty reply. */
    void roundTrip(int worldTarget, int kind, int lockType) {
        int tag = replyTag();
        DeviceRequest reply = expectReply(worldTarget, tag, empty);
        RmaFrame.header(request, kind, tag, lockType);
        send(request.asSlice(0, RmaFrame.HEADER), worldTarget, RmaFrame.REQUEST_TAG);
        await(reply);
    }

    /** Sends an empty notice with {@code tag} (post, complete) to {@code worldPeer}. */
    void notify(int worldPeer, int tag) {
        send(empty, worldPeer, tag);
    }

    /** Waits for the empty notice with {@code tag} from {@code worldPeer}. */
    void awaitNotice(int worldPeer, int tag) {
        await(expectReply(worldPeer, tag, empty));
    }

    /**
     * Sends a request on {@code count} items of {@code type} at {@code offset} in the target's window, with the
     * packed data of {@code data} (then of {@code compare}, for compare-and-swap), each {@code dataCount} items
     * of {@code dataType}; {@code data == null} sends none.
     */
    void send(int worldTarget, int kind, int replyTag, long offset, int count, TypeDescriptor type, int op,
              Object data, int dataCount, TypeDescriptor dataType, Object compare) {
        MemorySegment out = build(kind, replyTag, offset, count, type, op, data, dataCount, dataType, compare);
        if (RmaFrame.bodyInline(request)) {
            send(request.asSlice(0, RmaFrame.HEADER + out.byteSize()), worldTarget, RmaFrame.REQUEST_TAG);
        } else {
            send(header(), worldTarget, RmaFrame.REQUEST_TAG);
            send(out, worldTarget, RmaFrame.BODY_TAG);
        }
    }

    /**
     * Builds the request that {@link #send} sends: its header in {@link #header}, its body (returned) after it or,
     * too large for that, in staging of its own.
     */
    MemorySegment build(int kind, int replyTag, long offset, int count, TypeDescriptor type, int op,
                        Object data, int dataCount, TypeDescriptor dataType, Object compare) {
        Typemap runs = type.typemap();
        long dataBytes = data == null ? 0 : (long) dataCount * dataType.byteSize() * (compare == null ? 1 : 2);
        long bodyBytes = (long) runs.runs() * RmaFrame.RUN + dataBytes;
        boolean inline = RmaFrame.HEADER + bodyBytes <= RmaFrame.REQUEST_LIMIT;
        RmaFrame.header(request, kind, replyTag, offset, count, op, AccumulateOp.baseCode(type), runs.runs(),
                type.extent(), Math.toIntExact(dataBytes), inline);
        MemorySegment out = inline ? request.asSlice(RmaFrame.HEADER, bodyBytes) : bodyStaging(bodyBytes);
        for (int r = 0; r < runs.runs(); r++) {
            RmaFrame.run(out, r, runs.offset(r), runs.length(r), runs.elementBytes(r));
        }
        long at = (long) runs.runs() * RmaFrame.RUN;
        if (data != null) {
            long bytes = (long) dataCount * dataType.byteSize();
            BufferMapping.pack(data, dataCount, dataType, out.asSlice(at, bytes));
            if (compare != null) {
                BufferMapping.pack(compare, dataCount, dataType, out.asSlice(at + bytes, bytes));
            }
        }
        return out;
    }

    /** The header of the request {@link #build} built last. */
    MemorySegment header() {
        return request.asSlice(0, RmaFrame.HEADER);
    }

    private MemorySegment bodyStaging(long bytes) {
        if (body.byteSize() < bytes) {
            body = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
        }
        return body.asSlice(0, bytes);
    }

    private void send(MemorySegment data, int worldTarget, int tag) {
        int error = device.send(data, worldTarget, tag, context, SendMode.STANDARD);
        if (error != ErrorClass.SUCCESS) {
            throw MpiErrors.error(error, "a one-sided request could not be sent");
        }
    }
}
