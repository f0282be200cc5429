package org.weft.mm.proto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The envelope every <em>enqueue message</em> RSR starts with (a flyweight codec: static accessors at fixed
 * offsets, no objects). Little-endian; the payload, if any, follows at {@link #LENGTH}.
 *
 * <pre>
 *  0        1        2                 4                 8                 12                16
 *  +--------+--------+-----------------+-----------------+-----------------+-----------------+
 *  | kind   | flags  | reserved        | context (i32)   | tag (i32)       | reserved        |
 *  +--------+--------+-----------------+-----------------+-----------------+-----------------+
 *  | message length in bytes (i64)     | sender request id (i64)           |
 *  +-----------------------------------+-----------------------------------+  32
 *  | receiver request id (i64)         | payload ...
 *  +-----------------------------------+  40
 * </pre>
 *
 * Kinds: {@link #EAGER} (envelope and whole payload), {@link #RTS} (envelope, no payload: request to send),
 * {@link #CTS} (receiver is ready: both request ids), {@link #DATA} (one fragment of the payload for the receiver
 * request id; its sender-request field carries the fragment's byte offset in the message),
 * {@link #SYNC_ACK} (an eager synchronous send matched: sender request id), {@link #PULLED} (the receiver copied a
 * rendezvous message's data itself, offered by {@link #FLAG_PULL}: sender request id).
 */
public final class MessageHeader {
    public static final byte EAGER = 1;
    public static final byte RTS = 2;
    public static final byte CTS = 3;
    public static final byte DATA = 4;
    public static final byte SYNC_ACK = 5;
    public static final byte PULLED = 6;

    /** Flag: the sender waits for {@link #SYNC_ACK} when the message matches ({@code MPI_Ssend}). */
    public static final byte FLAG_SYNC = 1;
    /**
     * Flag: in an {@link #RTS}, the sender's data can go by its link's bulk transfer; in a {@link #CTS}, the
     * receiver has started the bulk receive of message-length bytes (the sender sends that many, no DATA).
     */
    public static final byte FLAG_BULK = 2;
    /**
     * Flag: in an {@link #RTS}, the receiver-request field holds the address of the sender's data, which the
     * receiver may copy out of the sender's memory by the link's single copy and answer {@link #PULLED} (else CTS).
     */
    public static final byte FLAG_PULL = 4;

    public static final int KIND_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int CONTEXT_OFFSET = 4;
    public static final int TAG_OFFSET = 8;
    public static final int MESSAGE_LENGTH_OFFSET = 16;
    public static final int SENDER_REQUEST_OFFSET = 24;
    public static final int RECEIVER_REQUEST_OFFSET = 32;
    public static final int LENGTH = 40;

    private MessageHeader() {
    }

    /** Writes a whole header at {@code buffer}'s position 0 and leaves it ready to read ({@code 0..LENGTH}). */
    public static ByteBuffer write(ByteBuffer buffer, byte kind, byte flags, int context, int tag,
                                   long messageLength, long senderRequest, long receiverRequest) {
        buffer.clear();
        if (buffer.order() == ByteOrder.LITTLE_ENDIAN) {
            // five eight-byte stores instead of nine of their fields: each store checks its index and the buffer
            buffer.putLong(KIND_OFFSET, (kind & 0xFFL) | (flags & 0xFFL) << 8 | (long) context << 32)
                    .putLong(TAG_OFFSET, tag & 0xFFFF_FFFFL)
                    .putLong(MESSAGE_LENGTH_OFFSET, messageLength)
                    .putLong(SENDER_REQUEST_OFFSET, senderRequest)
                    .putLong(RECEIVER_REQUEST_OFFSET, receiverRequest);
            return buffer.limit(LENGTH);
        }
        buffer.put(KIND_OFFSET, kind)
                .put(FLAGS_OFFSET, flags)
                .putShort(2, (short) 0)
                .putInt(CONTEXT_OFFSET, context)
                .putInt(TAG_OFFSET, tag)
                .putInt(12, 0)
                .putLong(MESSAGE_LENGTH_OFFSET, messageLength)
                .putLong(SENDER_REQUEST_OFFSET, senderRequest)
                .putLong(RECEIVER_REQUEST_OFFSET, receiverRequest);
        return buffer.limit(LENGTH);
    }

    public static byte kind(ByteBuffer body) {
        return body.get(body.position() + KIND_OFFSET);
    }

    public static byte flags(ByteBuffer body) {
        return body.get(body.position() + FLAGS_OFFSET);
    }

    public static int context(ByteBuffer body) {
        return body.getInt(body.position() + CONTEXT_OFFSET);
    }

    public static int tag(ByteBuffer body) {
        return body.getInt(body.position() + TAG_OFFSET);
    }

    public static long messageLength(ByteBuffer body) {
        return body.getLong(body.position() + MESSAGE_LENGTH_OFFSET);
    }

    public static long senderRequest(ByteBuffer body) {
        return body.getLong(body.position() + SENDER_REQUEST_OFFSET);
    }

    public static long receiverRequest(ByteBuffer body) {
        return body.getLong(body.position() + RECEIVER_REQUEST_OFFSET);
    }
}
