package org.weft.mm.module.shm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.weft.adi.concurrent.SpinLock;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;
import org.weft.mm.spi.SingleCopy;
import org.weft.mm.stats.MethodCounters;

/**
 * The sending side of {@code shm} to one peer: this process's ring in the peer's inbox. Senders of this process
 * are serialised by a lock (the ring has one producer, this process); a send copies the RSR into the ring once and
 * publishes it with a release store: the peer's poller sees it without any wake-up.
 */
final class ShmLink implements CommObject {
    private static final int MAX_ID = 0xFFFF;

    private final int peerRank;
    private final RingWriter ring;
    private final ShmDoorbell.PeerBell peerBell;
    /** Largest body (header + payload) one send may carry: a record must fit the peer's ring whole. */
    private final long maxBody;
    private final SpinLock lock = new SpinLock();
    /** What this link sent (under {@link #lock}). */
    private final MethodCounters.Traffic traffic;
    /** Large data read straight out of the peer's memory, or {@code null} (off, or not possible here). */
    private final SingleCopy singleCopy;
    private boolean closed;

    ShmLink(int peerRank, RingWriter ring, ShmDoorbell.PeerBell peerBell, MethodCounters.Traffic traffic,
            SingleCopy singleCopy) {
        this.peerRank = peerRank;
        this.singleCopy = singleCopy;
        this.traffic = traffic;
        this.ring = ring;
        this.peerBell = peerBell;
        this.maxBody = RingLayout.maxBody(ring.capacity());
    }

    int peerRank() {
        return peerRank;
    }

    @Override
    public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        if ((endpointId & ~MAX_ID) != 0 || (handlerId & ~MAX_ID) != 0) {
            throw new IllegalArgumentException("endpoint " + endpointId + " / handler " + handlerId
                    + " outside 0.." + MAX_ID);
        }
        long body = header.remaining() + payload.byteSize();
        if (body > maxBody) {
            throw new IllegalArgumentException("an RSR of " + body + " bytes exceeds the " + maxBody
                    + " bytes an shm ring to rank " + peerRank + " can carry");
        }
        SendStatus status;
        lock.lock();
        try {
            if (closed) {
                return SendStatus.FAILED;
            }
            status = ring.offer(endpointId, handlerId, header, payload);
            // Whether the reader refused this process is asked after the publication, off the receiver's critical
            // path: a refused ring is never read again, so a record published into it is as lost as one not
            // written, and the send fails either way (and also when the refusal came during the offer).
            if (ring.isClosed()) {
                return SendStatus.FAILED;
            }
            if (status == SendStatus.SENT) {
                traffic.sent(body);
            }
        } finally {
            lock.unlock();
        }
        if (status == SendStatus.SENT) {
            peerBell.ringIfSleeping();
        }
        return status;
    }

    @Override
    public SingleCopy singleCopy() {
        return singleCopy;
    }

    /** Wakes the peer if it sleeps in its doorbell (it may wait on memory this process wrote). */
    void wakePeer() {
        peerBell.ringIfSleeping();
    }

    /** No send runs after this returns, so the mapping may go. */
    void close() {
        lock.lock();
        closed = true;
        lock.unlock();
    }

    @Override
    public String methodName() {
        return ShmModule.NAME;
    }
}
