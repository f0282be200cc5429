package org.weft.mm.module.tcp;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.weft.mm.spi.BulkTransfer;

/**
 * The striped messages this process is receiving: each started by {@code BulkTransfer.receive} before the CTS
 * goes, keyed by the receiver's transfer id, and filled by the CHUNKs that come on any of the sender's stripes, in
 * any order, straight into the receive's memory. The last byte completes it; a lost connection from its sender, or
 * the sender's word that one of its stripes failed (STRIPES_FAILED), fails it (never a receive that waits for ever).
 */
final class StripeReceives {
    /** One message being received: its memory, its sender, the bytes still due. */
    private record Receive(int source, MemorySegment into, AtomicLong due, BulkTransfer.Listener listener) {
    }

    private final ConcurrentHashMap<Long, Receive> receives = new ConcurrentHashMap<>();
    /**
     * Transfers failed while their chunks may still come on the sender's other stripes: those are dropped, not taken
     * for a garbled stream. One entry per failed message, and failures end a job as a rule.
     */
    private final Set<Long> abandoned = ConcurrentHashMap.newKeySet();

    void expect(int source, long id, MemorySegment into, BulkTransfer.Listener listener) {
        if (receives.putIfAbsent(id, new Receive(source, into, new AtomicLong(into.byteSize()), listener)) != null) {
            throw new IllegalStateException("striped transfer " + id + " received twice");
        }
    }

    /** Whether a striped message is being received: its chunks may be on the stripes now. */
    boolean expecting() {
        return !receives.isEmpty();
    }

    void cancel(long id) {
        Receive r = receives.remove(id);
        if (r != null) {
            r.listener().failed("cancelled");
        }
    }

    /**
     * Places one CHUNK from {@code source} (its body from the buffer's position to its limit: id, offset, bytes);
     * throws {@link IllegalArgumentException} for a chunk that is no receive's or lies outside it.
     */
    void chunk(int source, ByteBuffer body) {
        int at = body.position();
        long id = body.getLong(at);
        long offset = body.getLong(at + 8);
        int length = body.remaining() - FrameLayout.CHUNK_HEAD;
        Receive r = receives.get(id);
        if (r == null && abandoned.contains(id)) {
            return;
        }
        if (r == null || r.source() != source) {
            throw new IllegalArgumentException("chunk of unknown striped transfer " + id);
        }
        if (offset < 0 || length < 0 || offset + length > r.into().byteSize()) {
            throw new IllegalArgumentException("chunk [" + offset + ", +" + length + ") outside the "
                    + r.into().byteSize() + " bytes of transfer " + id);
        }
        MemorySegment.copy(MemorySegment.ofBuffer(body), FrameLayout.CHUNK_HEAD, r.into(), offset, length);
        if (r.due().addAndGet(-length) == 0 && receives.remove(id, r)) {
            r.listener().done();
        }
    }

    /** A connection from {@code source} was lost: its striped messages will not come. Returns how many failed. */
    int sourceLost(int source, String why) {
        int failed = 0;
        for (var entry : receives.entrySet()) {
            Receive r = entry.getValue();
            if (r.source() == source && receives.remove(entry.getKey(), r)) {
                abandoned.add(entry.getKey());
                r.listener().failed(why);
                failed++;
            }
        }
        return failed;
    }
}
