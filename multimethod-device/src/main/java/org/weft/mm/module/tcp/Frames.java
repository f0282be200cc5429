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
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/** Makes the control frames (see {@link FrameLayout}) and checks RSR frames before they are queued. */
final class Frames {
    private Frames() {
    }

    /**
     * The total size (length field included) of an RSR frame carrying {@code header} (position to limit) and
     * {@code payload}; throws {@link IllegalArgumentException} for ids outside the wire's range or a frame longer
     * than {@code maxFrame}, before anything is queued.
     */
    static int rsrLength(int maxFrame, int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        if (endpointId < 0 || endpointId > MAX_ENDPOINT_ID) {
            throw new IllegalArgumentException("endpoint id " + endpointId + " outside [0, " + MAX_ENDPOINT_ID + "]");
        }
        if (handlerId < 0 || handlerId > MAX_HANDLER_ID) {
            throw new IllegalArgumentException("handler id " + handlerId + " outside [0, " + MAX_HANDLER_ID + "]");
        }
        long frameLength = HEADER_LENGTH + (long) header.remaining() + payload.byteSize();
        if (frameLength > maxFrame) {
            throw new IllegalArgumentException("RSR of " + frameLength + " bytes exceeds tcp_max_frame (" + maxFrame
                    + "): send large payloads in pieces");
        }
        return (int) frameLength;
    }

    /**
     * Writes a whole RSR frame of {@code frameLength} bytes at {@code at} of {@code buffer} (little-endian;
     * {@code segment} spans it, for copying payloads of any kind): length, ids, {@code header} (its position stays),
     * payload.
     */
    static void putRsr(ByteBuffer buffer, MemorySegment segment, int at, int frameLength, int endpointId,
                       int handlerId, ByteBuffer header, MemorySegment payload) {
        int payloadAt = putRsrHead(buffer, at, frameLength, endpointId, handlerId, header);
        long payloadLength = payload.byteSize();
        if (payloadLength > 0) {
            MemorySegment.copy(payload, 0, segment, payloadAt, payloadLength);
        }
    }

    /** Writes an RSR frame's length, ids and {@code header} at {@code at}; returns where its payload goes. */
    static int putRsrHead(ByteBuffer buffer, int at, int frameLength, int endpointId, int handlerId,
                          ByteBuffer header) {
        buffer.putInt(at, frameLength - LENGTH_FIELD);
        buffer.putShort(at + LENGTH_FIELD + FrameLayout.ENDPOINT_OFFSET, (short) endpointId);
        buffer.putShort(at + LENGTH_FIELD + FrameLayout.HANDLER_OFFSET, (short) handlerId);
        // Absolute bulk put: the caller's header keeps its position.
        buffer.put(at + HEADER_LENGTH, header, header.position(), header.remaining());
        return at + HEADER_LENGTH + header.remaining();
    }

    /** Writes the head of a COMPRESSED frame of {@code compressedLength} codec bytes for {@code rawLength}. */
    static void putCompressedHeader(ByteBuffer buffer, int at, int compressedLength, int codec, int rawLength) {
        buffer.putInt(at, FrameLayout.COMPRESSED_HEADER_LENGTH - LENGTH_FIELD + compressedLength);
        buffer.putShort(at + LENGTH_FIELD + FrameLayout.ENDPOINT_OFFSET, (short) CONTROL_ENDPOINT);
        buffer.putShort(at + LENGTH_FIELD + FrameLayout.HANDLER_OFFSET, (short) FrameLayout.COMPRESSED_HANDLER);
        buffer.putInt(at + FrameLayout.COMPRESSED_CODEC_OFFSET, codec);
        buffer.putInt(at + FrameLayout.COMPRESSED_RAW_LENGTH_OFFSET, rawLength);
    }

    /** The HELLO that opens every connection, as bytes. */
    static byte[] helloBytes(Hello hello) {
        return helloBytes(hello, FrameLayout.HELLO_HANDLER);
    }

    /** The HELLO that opens every connection, as bytes; {@code handlerId} HELLO, or STRIPE_HELLO on a stripe. */
    static byte[] helloBytes(Hello hello, int handlerId) {
        return bytes(hello(UnpooledByteBufAllocator.DEFAULT, hello, handlerId));
    }

    /** An empty control frame (BYE, MOVED, SWITCHED), as bytes. */
    static byte[] controlBytes(int handlerId) {
        return bytes(control(UnpooledByteBufAllocator.DEFAULT, handlerId));
    }

    private static byte[] bytes(ByteBuf frame) {
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /** The HELLO that opens every connection. */
    static ByteBuf hello(ByteBufAllocator alloc, Hello hello) {
        return hello(alloc, hello, FrameLayout.HELLO_HANDLER);
    }

    private static ByteBuf hello(ByteBufAllocator alloc, Hello hello, int handlerId) {
        byte[] jobId = hello.jobIdBytes();
        int bodyLength = 4 + 2 + 4 + 4 + 2 + 2 + jobId.length + Hello.NONCE_LENGTH + Hello.PROOF_LENGTH;
        ByteBuf frame = alloc.buffer(HEADER_LENGTH + bodyLength);
        frame.writeIntLE(IDS_LENGTH + bodyLength);
        frame.writeShortLE(CONTROL_ENDPOINT);
        frame.writeShortLE(handlerId);
        frame.writeIntLE(FrameLayout.MAGIC);
        frame.writeShortLE(hello.version());
        frame.writeIntLE(hello.rank());
        frame.writeIntLE(hello.target());
        frame.writeShortLE(hello.flags());
        frame.writeShortLE(jobId.length);
        frame.writeBytes(jobId);
        frame.writeBytes(hello.nonce());
        frame.writeBytes(hello.proof());
        return frame;
    }

    /** A control frame with a body (PING, PONG, PROBE_RESULT), as bytes. */
    static byte[] controlBytes(int handlerId, byte[] body) {
        ByteBuf frame = UnpooledByteBufAllocator.DEFAULT.buffer(HEADER_LENGTH + body.length);
        frame.writeIntLE(IDS_LENGTH + body.length);
        frame.writeShortLE(CONTROL_ENDPOINT);
        frame.writeShortLE(handlerId);
        frame.writeBytes(body);
        return bytes(frame);
    }

    /** The BYE sent before a deliberate close. */
    static ByteBuf bye(ByteBufAllocator alloc) {
        return control(alloc, BYE_HANDLER);
    }

    private static ByteBuf control(ByteBufAllocator alloc, int handlerId) {
        ByteBuf frame = alloc.buffer(HEADER_LENGTH);
        frame.writeIntLE(IDS_LENGTH);
        frame.writeShortLE(CONTROL_ENDPOINT);
        frame.writeShortLE(handlerId);
        return frame;
    }
}
