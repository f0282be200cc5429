package org.weft.mm.module.self;

import org.weft.mm.stats.MethodCounters;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The RSRs a process has sent itself and not yet delivered, in order, in one byte array that grows as needed and is
 * used again from its start whenever it empties: records of (endpoint, handler, length, header and payload). The
 * oldest is taken by copying it into the poller's {@link Taken}, one buffer delivered from again and again, so that
 * sending to oneself makes no garbage (a buffer, a queue node and a segment per RSR before) and the device's view of
 * the delivering buffer is made once.
 *
 * <p>Thread-safe: any thread adds; one poller at a time takes.
 */
final class PendingRsrs {
    private static final int RECORD_HEADER = 3 * Integer.BYTES;
    private static final int INITIAL_BYTES = 64 * 1024;

    private byte[] bytes = new byte[INITIAL_BYTES];
    private ByteBuffer buffer = wrap(bytes);
    private MemorySegment segment = MemorySegment.ofArray(bytes);
    private int head;
    private int tail;
    /** RSRs added and not taken: read without the lock by the poller's look. */
    private volatile int count;

    /** The RSR the poller took last, and the buffer it is delivered from (valid until the next take). */
    static final class Taken {
        int endpointId;
        int handlerId;
        private byte[] bytes = new byte[0];
        private ByteBuffer body = wrap(bytes);

        ByteBuffer body() {
            return body;
        }
    }

    private static ByteBuffer wrap(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    boolean isEmpty() {
        return count == 0;
    }

    /**
     * Appends an RSR: a copy of {@code header}'s remaining bytes followed by {@code payload}; counts it in
     * {@code sent} (under this queue's lock, which serialises the senders).
     */
    synchronized void add(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload,
                          MethodCounters.Traffic sent) {
        int length = Math.addExact(header.remaining(), Math.toIntExact(payload.byteSize()));
        makeRoom(RECORD_HEADER + length);
        buffer.putInt(tail, endpointId).putInt(tail + 4, handlerId).putInt(tail + 8, length);
        int at = tail + RECORD_HEADER;
        buffer.put(at, header, header.position(), header.remaining());
        MemorySegment.copy(payload, 0, segment, at + header.remaining(), payload.byteSize());
        tail = at + length;
        count++;
        sent.sent(length);
    }

    /** Moves the oldest RSR into {@code into}; false if there is none. */
    synchronized boolean take(Taken into) {
        if (count == 0) {
            return false;
        }
        int length = buffer.getInt(head + 8);
        into.endpointId = buffer.getInt(head);
        into.handlerId = buffer.getInt(head + 4);
        if (into.bytes.length < length) {
            into.bytes = new byte[Math.max(length, 2 * into.bytes.length)];
            into.body = wrap(into.bytes);
        }
        System.arraycopy(bytes, head + RECORD_HEADER, into.bytes, 0, length);
        into.body.limit(length).position(0);
        head += RECORD_HEADER + length;
        if (--count == 0) {
            head = 0; // empty: the next record starts at the beginning again
            tail = 0;
        }
        return true;
    }

    /** Drops every RSR not taken. */
    synchronized void clear() {
        head = 0;
        tail = 0;
        count = 0;
    }

    /** Room for {@code needed} more bytes after the tail: the records moved to the start, or a larger array. */
    private void makeRoom(int needed) {
        if (bytes.length - tail >= needed) {
            return;
        }
        int used = tail - head;
        byte[] target = bytes;
        if (bytes.length - used < needed) {
            target = new byte[Math.max(2 * bytes.length, used + needed)];
        }
        System.arraycopy(bytes, head, target, 0, used);
        if (target != bytes) {
            bytes = target;
            buffer = wrap(bytes);
            segment = MemorySegment.ofArray(bytes);
        }
        head = 0;
        tail = used;
    }
}
