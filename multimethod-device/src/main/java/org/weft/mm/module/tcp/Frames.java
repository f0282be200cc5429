package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.BYE_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.CONTROL_ENDPOINT;
import static org.weft.mm.module.tcp.FrameLayout.HEADER_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.IDS_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.LENGTH_FIELD;
import static org.weft.mm.module.tcp.FrameLayout.MAX_ENDPOINT_ID;
import static org.weft.mm.module.tcp.FrameLayout.MAX_HANDLER_ID;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/** Writes whole frames (see {@link FrameLayout}) into pooled direct buffers ready for the socket. */
final class Frames {
    private Frames() {
    }

    /**
     * One RSR frame holding a copy of {@code header} (position to limit, left untouched) and {@code payload}, which
     * may be any segment: native, or a heap segment over an array of any primitive type (copied byte for byte).
     */
    static ByteBuf rsr(ByteBufAllocator alloc, int maxFrame, int endpointId, int handlerId, ByteBuffer header,
            MemorySegment payload) {
        if (endpointId < 0 || endpointId > MAX_ENDPOINT_ID) {
            throw new IllegalArgumentException("endpoint id " + endpointId + " outside [0, " + MAX_ENDPOINT_ID + "]");
        }
        if (handlerId < 0 || handlerId > MAX_HANDLER_ID) {
            throw new IllegalArgumentException("handler id " + handlerId + " outside [0, " + MAX_HANDLER_ID + "]");
        }
        int headerLength = header.remaining();
        long frameLength = HEADER_LENGTH + (long) headerLength + payload.byteSize();
        if (frameLength > maxFrame) {
            throw new IllegalArgumentException("RSR of " + frameLength + " bytes exceeds tcp_max_frame (" + maxFrame
                    + "): send large payloads in pieces");
        }
        int size = (int) frameLength;
        ByteBuf frame = alloc.directBuffer(size, size);
        try {
            frame.writeIntLE(size - LENGTH_FIELD);
            frame.writeShortLE(endpointId);
            frame.writeShortLE(handlerId);
            // The header goes through Netty's bulk copy, which advances the source: put its position back, so the
            // caller's buffer is left as it was. The payload may be a heap segment over any primitive array, which
            // no ByteBuffer API takes: copy it through a segment view of the frame's own cached NIO buffer
            // (internalNioBuffer: no garbage; safe because nobody else holds this fresh buffer yet).
            int headerStart = header.position();
            frame.writeBytes(header);
            header.position(headerStart);
            int payloadLength = size - HEADER_LENGTH - headerLength;
            if (payloadLength > 0) {
                MemorySegment target = MemorySegment.ofBuffer(frame.internalNioBuffer(frame.writerIndex(),
                        payloadLength));
                MemorySegment.copy(payload, 0, target, 0, payloadLength);
            }
            frame.writerIndex(size);
            return frame;
        } catch (RuntimeException e) {
            frame.release();
            throw e;
        }
    }

    /** The HELLO that opens every connection. */
    static ByteBuf hello(ByteBufAllocator alloc, Hello hello) {
        byte[] jobId = hello.jobIdBytes();
        byte[] secret = hello.secretBytes();
        int bodyLength = 4 + 2 + 4 + 2 + jobId.length + 2 + secret.length;
        ByteBuf frame = alloc.buffer(HEADER_LENGTH + bodyLength);
        frame.writeIntLE(IDS_LENGTH + bodyLength);
        frame.writeShortLE(CONTROL_ENDPOINT);
        frame.writeShortLE(FrameLayout.HELLO_HANDLER);
        frame.writeIntLE(FrameLayout.MAGIC);
        frame.writeShortLE(hello.version());
        frame.writeIntLE(hello.rank());
        frame.writeShortLE(jobId.length);
        frame.writeBytes(jobId);
        frame.writeShortLE(secret.length);
        frame.writeBytes(secret);
        return frame;
    }

    /** The BYE sent before a deliberate close. */
    static ByteBuf bye(ByteBufAllocator alloc) {
        ByteBuf frame = alloc.buffer(HEADER_LENGTH);
        frame.writeIntLE(IDS_LENGTH);
        frame.writeShortLE(CONTROL_ENDPOINT);
        frame.writeShortLE(BYE_HANDLER);
        return frame;
    }
}
