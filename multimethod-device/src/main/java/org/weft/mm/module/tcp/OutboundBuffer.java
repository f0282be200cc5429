package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.HEADER_LENGTH;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The bytes queued for one socket: whole frames are appended at the end and written from the start, as much as the
 * socket takes without blocking. One direct buffer, grown when a frame does not fit and given back once it drains
 * if it grew large; in steady state appending and writing allocate nothing. Not thread-safe: the owning link's
 * lock guards it.
 *
 * <pre>
 *   0            start               end                 capacity
 *   | written    | pending (unwritten) | free              |
 * </pre>
 */
final class OutboundBuffer {
    static final int INITIAL_CAPACITY = 64 * 1024;
    /** A buffer grown beyond this (by a large frame or a backlog) is dropped once empty, not kept for ever. */
    private static final int KEEP_CAPACITY = 16 << 20;

    private ByteBuffer buffer;
    /** {@link #buffer} from 0 to its capacity as a segment, for copying payload segments of any kind into it. */
    private MemorySegment segment;
    private int start;
    private int end;
    /** The two buffers of a gathering write, kept to send without garbage. */
    private final ByteBuffer[] gather = new ByteBuffer[2];

    OutboundBuffer() {
        allocate(INITIAL_CAPACITY);
    }

    boolean isEmpty() {
        return start == end;
    }

    /** Bytes queued and not yet written. */
    int pendingBytes() {
        return end - start;
    }

    /** Appends one RSR frame (layout in {@link FrameLayout}); {@code frameLength} was checked by the caller. */
    void appendRsr(int frameLength, int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        int at = reserve(frameLength);
        Frames.putRsr(buffer, segment, at, frameLength, endpointId, handlerId, header, payload);
        end = at + frameLength;
    }

    /**
     * Appends the start of an RSR frame, up to and including {@code header}: its payload must follow at once, by
     * {@link #writeWithTail}.
     */
    void appendRsrHead(int frameLength, int endpointId, int handlerId, ByteBuffer header) {
        int at = reserve(HEADER_LENGTH + header.remaining());
        end = Frames.putRsrHead(buffer, at, frameLength, endpointId, handlerId, header);
    }

    /**
     * Room for up to {@code length} more bytes at the end, for a frame made in place (compressed): returns where it
     * starts in {@link #buffer()}; {@link #commit} then says where it ends.
     */
    int claim(int length) {
        return reserve(length);
    }

    /** The buffer {@link #claim} gave an offset into (little-endian, absolute access only). */
    ByteBuffer buffer() {
        return buffer;
    }

    /** The frame made in place after {@link #claim} ends at {@code newEnd}. */
    void commit(int newEnd) {
        end = newEnd;
    }

    /**
     * Writes the pending bytes followed by {@code tail} in one gathering write, so that a large payload goes to the
     * socket without being copied here first; the part of {@code tail} the socket did not take is copied to the
     * end of the queue (the caller's buffer is free when this returns). Returns the bytes written.
     */
    long writeWithTail(GatheringByteChannel channel, ByteBuffer tail) throws IOException {
        buffer.limit(end).position(start);
        gather[0] = buffer;
        gather[1] = tail;
        long written;
        try {
            written = channel.write(gather);
        } finally {
            start = buffer.position();
            buffer.clear();
            gather[1] = null;
        }
        int left = tail.remaining();
        if (left > 0) {
            int at = reserve(left);
            buffer.put(at, tail, tail.position(), left);
            end = at + left;
        } else if (start == end) {
            start = end = 0;
        }
        return written;
    }

    /** Appends bytes made elsewhere (HELLO, BYE). */
    void append(byte[] bytes) {
        int at = reserve(bytes.length);
        buffer.put(at, bytes);
        end = at + bytes.length;
    }

    /**
     * Writes pending bytes until the socket takes no more or none are left; returns the number written.
     * {@code channel} must be non-blocking.
     */
    int writeTo(WritableByteChannel channel) throws IOException {
        int written = 0;
        while (start < end) {
            buffer.limit(end).position(start);
            int n = channel.write(buffer);
            start = buffer.position();
            buffer.clear();
            if (n <= 0) {
                break;
            }
            written += n;
        }
        if (start == end) {
            start = end = 0;
            if (buffer.capacity() > KEEP_CAPACITY) {
                allocate(INITIAL_CAPACITY);
            }
        }
        return written;
    }

    /** Makes room for {@code length} more bytes after the pending ones; returns where they go. */
    private int reserve(int length) {
        if (buffer.capacity() - end >= length) {
            return end;
        }
        int pending = end - start;
        if (buffer.capacity() - pending >= length && start >= pending) {
            // Enough room once the written bytes are dropped: slide the pending ones (not overlapping) to the front.
            buffer.put(0, buffer, start, pending);
        } else {
            ByteBuffer old = buffer;
            long wanted = Math.max(2L * buffer.capacity(), (long) pending + length);
            allocate((int) Math.min(wanted, Integer.MAX_VALUE - 8));
            buffer.put(0, old, start, pending);
        }
        start = 0;
        end = pending;
        return end;
    }

    private void allocate(int capacity) {
        buffer = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
        segment = MemorySegment.ofBuffer(buffer);
    }
}
