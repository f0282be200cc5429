package org.weft.mm.module.shm;

import static org.weft.mm.module.shm.RingAccess.COUNTER;
import static org.weft.mm.module.shm.RingAccess.FLAG;
import static org.weft.mm.module.shm.RingAccess.LENGTH;
import static org.weft.mm.module.shm.RingAccess.INT;
import static org.weft.mm.module.shm.RingLayout.CLOSED_OFFSET;
import static org.weft.mm.module.shm.RingLayout.CONTROL_LENGTH;
import static org.weft.mm.module.shm.RingLayout.IDS_OFFSET;
import static org.weft.mm.module.shm.RingLayout.HEAD_OFFSET;
import static org.weft.mm.module.shm.RingLayout.LENGTH_OFFSET;
import static org.weft.mm.module.shm.RingLayout.RECORD_HEADER_LENGTH;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;
import org.weft.mm.spi.MalformedRsrException;
import org.weft.mm.spi.RsrSink;

/**
 * The consuming end of one ring in this process's inbox (layout: {@link RingLayout}): the only writer of its head.
 * Bodies are handed to the sink as a view of the ring itself (no copy), and their space is released as soon as
 * the sink returns. Not thread-safe: the module lets one poller at a time in.
 */
final class RingReader {
    private final int senderRank;
    private final MemorySegment control;
    private final MemorySegment data;
    /** One reusable little-endian view of the data area: a delivery only moves its position and limit. */
    private final ByteBuffer view;
    private final long capacity;
    private final long mask;
    private long head;
    private boolean closed;
    /**
     * Whether the ring was last seen empty: the next record then ends its poll (see {@link #poll}). Set by
     * {@link #mayHaveRecords} too, since the module skips {@link #poll} while that says "nothing": without it a
     * ping-pong's rings never counted as drained and every delivery read on into the next slot (a plain field,
     * written racily by lock-free callers: a wrong value costs one look too many or too few, never a record).
     */
    private boolean drained = true;

    RingReader(int senderRank, MemorySegment ring, long capacity) {
        this.senderRank = senderRank;
        this.control = ring.asSlice(0, CONTROL_LENGTH);
        this.data = ring.asSlice(CONTROL_LENGTH, capacity);
        this.view = data.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.head = (long) COUNTER.getAcquire(control, (long) HEAD_OFFSET);
    }

    /**
     * Whether records may be waiting: a hint read without the poll lock ({@code head} only grows, so a stale value
     * can only say "maybe" where there is nothing, never "no" where there is something).
     */
    boolean mayHaveRecords() {
        if (closed) {
            return false;
        }
        if ((int) LENGTH.getAcquire(data, (head & mask) + LENGTH_OFFSET) != 0) {
            return true;
        }
        if (!drained) {
            drained = true; // written only on a change: waiting threads do not keep storing to this line
        }
        return false;
    }

    /**
     * Delivers at most {@code budget} RSRs to {@code sink}; returns how many it delivered. A record that arrives in
     * a drained ring is delivered alone: looking for the next one would read the slot the writer has just zeroed, a
     * cache line in the writer's core, while the caller may be waiting to answer this one (a ping-pong's receiver;
     * measured: a 0-byte shm ping-pong then stays at 0.18–0.21 µs where it drifted to 0.25–0.59 in rounds in which
     * Open MPI held 0.12; on the VM's slow placement that read is a cross-core miss of ~100 ns). A ring found holding
     * records is drained up to the budget.
     */
    int poll(int budget, RsrSink sink, Consumer<String> log) {
        if (closed) {
            return 0;
        }
        int limit = drained ? 1 : budget;
        int delivered = deliver(limit, sink, log);
        drained = delivered == 0;
        return delivered;
    }

    private int deliver(int budget, RsrSink sink, Consumer<String> log) {
        int delivered = 0;
        while (delivered < budget) {
            int index = (int) (head & mask);
            int length = (int) LENGTH.getAcquire(data, (long) index + LENGTH_OFFSET);
            if (length == 0) {
                break; // the writer has not published a record here yet
            }
            if (length < 0) {
                if (-length != capacity - index) {
                    refuse(log, "a padding record of " + -length + " bytes at offset " + index);
                    return delivered;
                }
                release(-length);
                continue;
            }
            if (length < RECORD_HEADER_LENGTH || RingLayout.align(length) > capacity - index) {
                refuse(log, "a record of " + length + " bytes at offset " + index);
                return delivered;
            }
            int ids = data.get(INT, index + IDS_OFFSET); // endpoint and handler in one read
            int endpointId = RingLayout.endpointOf(ids);
            int handlerId = RingLayout.handlerOf(ids);
            view.limit(index + length).position(index + RECORD_HEADER_LENGTH);
            try {
                sink.deliver(senderRank, endpointId, handlerId, view);
                delivered++;
            } catch (MalformedRsrException e) {
                refuse(log, "an RSR its handler rejected (" + e + ")");
                return delivered;
            } finally {
                release(RingLayout.align(length));
            }
        }
        return delivered;
    }

    private void release(int bytes) {
        head += bytes;
        COUNTER.setRelease(control, (long) HEAD_OFFSET, head);
    }

    /** Stops reading this sender and tells it so: its sends fail from now on. The job goes on. */
    private void refuse(Consumer<String> log, String what) {
        closed = true;
        FLAG.setRelease(control, (long) CLOSED_OFFSET, 1);
        log.accept("closing the shm ring from rank " + senderRank + ": it sent " + what);
    }
}
