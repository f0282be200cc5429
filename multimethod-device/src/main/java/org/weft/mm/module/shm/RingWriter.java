package org.weft.mm.module.shm;

import static org.weft.mm.module.shm.RingAccess.COUNTER;
import static org.weft.mm.module.shm.RingAccess.FLAG;
import static org.weft.mm.module.shm.RingAccess.INT;
import static org.weft.mm.module.shm.RingAccess.LONG;
import static org.weft.mm.module.shm.RingAccess.LENGTH;
import static org.weft.mm.module.shm.RingLayout.ALIGNMENT;
import static org.weft.mm.module.shm.RingLayout.CLOSED_OFFSET;
import static org.weft.mm.module.shm.RingLayout.CONTROL_LENGTH;
import static org.weft.mm.module.shm.RingLayout.IDS_OFFSET;
import static org.weft.mm.module.shm.RingLayout.HEAD_OFFSET;
import static org.weft.mm.module.shm.RingLayout.LENGTH_OFFSET;
import static org.weft.mm.module.shm.RingLayout.RECORD_HEADER_LENGTH;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.weft.mm.module.CacheSizedCopy;
import org.weft.mm.spi.SendStatus;

/**
 * The producing end of one ring (layout: {@link RingLayout}): the only writer of its tail. Not thread-safe: the
 * {@link ShmLink} that owns it serialises its callers.
 */
final class RingWriter {
    /** How far past a record's end its publication zeroes at most: a larger record's copy dwarfs what it saves. */
    static final int ZERO_AHEAD_LIMIT = 16 * 1024;
    /** Headers up to this long, in whole little-endian words, are copied in word by word; others in bulk. */
    static final int WORDWISE_HEADER_LIMIT = 64;

    private final MemorySegment control;
    private final MemorySegment data;
    private final ByteBuffer dataBuffer;
    private final long capacity;
    private final long mask;
    /** What this writer last published (it alone moves the tail). */
    private long tail;
    /** The reader's head as last seen: read again only when the cached value shows too little room. */
    private long headCache;
    /**
     * Every record start from {@code tail} up to here has a zero Length already: zeroed a message ahead, after the
     * previous record's publication, so that publishing a record no longer than that one stores to no line but its
     * own.
     */
    private long zeroedTo;

    /** {@code ring}: the control block followed by {@code capacity} data bytes, as mapped from the owner's inbox. */
    RingWriter(MemorySegment ring, long capacity) {
        this.control = ring.asSlice(0, CONTROL_LENGTH);
        this.data = ring.asSlice(CONTROL_LENGTH, capacity);
        this.dataBuffer = data.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.tail = (long) COUNTER.getAcquire(control, (long) HEAD_OFFSET); // a new ring: both are 0
        this.headCache = (long) COUNTER.getAcquire(control, (long) HEAD_OFFSET);
        this.zeroedTo = tail;
    }

    long capacity() {
        return capacity;
    }

    /** True once the reader refused this writer (it sent an RSR the reader's sink rejected). */
    boolean isClosed() {
        return (int) FLAG.getAcquire(control, (long) CLOSED_OFFSET) != 0;
    }

    /**
     * Appends one record holding {@code header} (position to limit; the buffer's own indices are not moved) and
     * {@code payload}. The caller has checked that the record fits an empty ring. Returns
     * {@link SendStatus#BACK_PRESSURED} having taken nothing when the ring lacks room now.
     */
    SendStatus offer(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        int headerLength = header.remaining();
        long payloadLength = payload.byteSize();
        int recordLength = (int) (RECORD_HEADER_LENGTH + headerLength + payloadLength);
        int aligned = RingLayout.align(recordLength);
        int index = (int) (tail & mask);
        int toEnd = (int) (capacity - index);
        if (aligned > toEnd) {
            // Publish the padding on its own: the record then waits for room at the start of the ring, and a record
            // as large as the ring allows still fits once the reader has drained it.
            if (!hasRoom(toEnd + ALIGNMENT)) {
                return SendStatus.BACK_PRESSURED;
            }
            publish(index, -toEnd, toEnd);
            index = 0;
        }
        if (!hasRoom(aligned + ALIGNMENT)) {
            return SendStatus.BACK_PRESSURED;
        }
        data.set(INT, index + IDS_OFFSET, RingLayout.ids(endpointId, handlerId));
        int bodyAt = index + RECORD_HEADER_LENGTH;
        if ((headerLength & 7) == 0 && headerLength <= WORDWISE_HEADER_LIMIT
                && header.order() == ByteOrder.LITTLE_ENDIAN) {
            // MPI's 40-byte envelope: five stores. A bulk ByteBuffer.put checks both buffers' sessions and calls a
            // copy stub, ~7 ns more per message (measured for issue 3: a send+recv to oneself over shm, 122-129
            // against 129-137 ns). The loop pays only here, inline: moved into a shared helper, it measured worse.
            for (int k = 0, from = header.position(); k < headerLength; k += 8) {
                data.set(LONG, bodyAt + k, header.getLong(from + k));
            }
        } else if (headerLength > 0) {
            dataBuffer.put(bodyAt, header, header.position(), headerLength);
        }
        if (payloadLength > 0) {
            CacheSizedCopy.copy(payload, 0, data, bodyAt + headerLength, payloadLength);
        }
        publish(index, recordLength, aligned);
        return SendStatus.SENT;
    }

    private boolean hasRoom(int bytes) {
        if (bytes <= capacity - (tail - headCache)) {
            return true;
        }
        headCache = (long) COUNTER.getAcquire(control, (long) HEAD_OFFSET);
        return bytes <= capacity - (tail - headCache);
    }

    /**
     * Publishes the record written at {@code index}: the Length where the next record will start must read zero
     * (the reader stops there until that one is published; the room check kept that slot free), then the record's
     * own Length is stored with a release store, which makes its contents visible to the reader polling that slot.
     *
     * <p>The next start is usually zeroed already, by the previous publication: a store to another line before the
     * release store would delay it (stores become visible in order), and that line, last touched a lap ago, is
     * rarely in cache. So after the release store the writer zeroes ahead, where the reader has freed the space:
     * every start through one more record as long as this one (up to {@link #ZERO_AHEAD_LIMIT}) and a slot. For a
     * record of several lines this also fetches the next record's lines for writing while the program waits, not
     * while it copies its next message in with the publication held behind those fetches (measured: a 1 KiB shm
     * ping-pong 0.39 → 0.29 µs one-way, Open MPI C 0.29 in the same rounds).
     */
    private void publish(int index, int length, int aligned) {
        long next = tail + aligned;
        if (next >= zeroedTo) {
            data.set(INT, (next & mask) + LENGTH_OFFSET, 0);
            zeroedTo = next + ALIGNMENT;
        }
        LENGTH.setRelease(data, (long) index + LENGTH_OFFSET, length);
        tail = next; // this writer's own count; the reader follows the Lengths, not a shared tail
        long ahead = next + Math.min(aligned, ZERO_AHEAD_LIMIT) + ALIGNMENT;
        long free = headCache + capacity;
        while (zeroedTo < ahead && zeroedTo + ALIGNMENT <= free) {
            data.set(INT, (zeroedTo & mask) + LENGTH_OFFSET, 0);
            zeroedTo += ALIGNMENT;
        }
    }
}
