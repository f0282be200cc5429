package org.weft.mm.match;

import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceMessage;

/**
 * A message that arrived before its receive was posted: an eager one with its data copied aside, or the
 * envelope of a rendezvous one (its data stays with the sender until the receive answers with CTS). A small eager
 * one may come from an {@link UnexpectedPool} and go back to it once received, its array reused.
 */
public final class UnexpectedMessage extends DeviceMessage {
    int source;
    int tag;
    int context;
    private long byteCount;
    /** The data of an eager message in its first {@link #byteCount} bytes; {@code null} for a rendezvous one. */
    private final byte[] eagerData;
    /**
     * A segment over {@link #eagerData}, made once with the message: a pooled message is received again and again,
     * and a segment made per receive was 72 bytes of garbage (segment and session) whenever the JIT did not
     * scalar-replace it — a repeated 2-rank allreduce, whose messages often arrive before their receives, made
     * 10–20 KB per 10 000 calls so (found by diffing {@code jcmd GC.class_histogram -all}).
     */
    private final MemorySegment eagerSegment;
    private long senderRequest;
    private boolean synchronous;
    private final boolean bulkOffered;
    /** Where a rendezvous message's data lies in its sender, offered for the receiver to copy itself; else 0. */
    private long pullAddress;
    /** Whether this message belongs to a pool (its array then has the pool's capacity). */
    final boolean pooled;

    private UnexpectedMessage(int source, int tag, int context, long byteCount, byte[] eagerData,
                              long senderRequest, boolean synchronous, boolean bulkOffered, boolean pooled) {
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.byteCount = byteCount;
        this.eagerData = eagerData;
        this.eagerSegment = eagerData == null ? null : MemorySegment.ofArray(eagerData);
        this.senderRequest = senderRequest;
        this.synchronous = synchronous;
        this.bulkOffered = bulkOffered;
        this.pooled = pooled;
    }

    public static UnexpectedMessage eager(int source, int tag, int context, byte[] data, long senderRequest,
                                          boolean synchronous) {
        return new UnexpectedMessage(source, tag, context, data.length, data, senderRequest, synchronous, false,
                false);
    }

    /** An empty eager message of a pool, whose array holds up to {@code capacity} bytes. */
    static UnexpectedMessage pooled(int capacity) {
        return new UnexpectedMessage(0, 0, 0, 0, new byte[capacity], 0, false, false, true);
    }

    /** {@code bulkOffered}: the sender can send the data by its link's bulk transfer. */
    public static UnexpectedMessage rendezvous(int source, int tag, int context, long byteCount,
                                               long senderRequest, boolean bulkOffered) {
        return new UnexpectedMessage(source, tag, context, byteCount, null, senderRequest, false, bulkOffered, false);
    }

    /**
     * As {@link #rendezvous(int, int, int, long, long, boolean)}; {@code pullAddress}: where the data lies in the
     * sender, for the receiver to copy by its link's single copy (0: not offered).
     */
    public static UnexpectedMessage rendezvous(int source, int tag, int context, long byteCount,
                                               long senderRequest, boolean bulkOffered, long pullAddress) {
        UnexpectedMessage m = rendezvous(source, tag, context, byteCount, senderRequest, bulkOffered);
        m.pullAddress = pullAddress;
        return m;
    }

    /** This pooled message made an eager one of {@code length} bytes (already in {@link #eagerData()}). */
    UnexpectedMessage reuse(int source, int tag, int context, int length, long senderRequest, boolean synchronous) {
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.byteCount = length;
        this.senderRequest = senderRequest;
        this.synchronous = synchronous;
        return this;
    }

    @Override
    public int source() {
        return source;
    }

    @Override
    public int tag() {
        return tag;
    }

    @Override
    public long byteCount() {
        return byteCount;
    }

    public int context() {
        return context;
    }

    /** The data of an eager message, in its first {@link #byteCount()} bytes; {@code null} for a rendezvous one. */
    public byte[] eagerData() {
        return eagerData;
    }

    /** {@link #eagerData()} as a segment (the same one each time); {@code null} for a rendezvous message. */
    public MemorySegment eagerSegment() {
        return eagerSegment;
    }

    public boolean isRendezvous() {
        return eagerData == null;
    }

    public long senderRequest() {
        return senderRequest;
    }

    /** Where a rendezvous message's data lies in its sender, if it offered a single copy; else 0. */
    public long pullAddress() {
        return pullAddress;
    }

    /** A rendezvous message whose sender offered a bulk transfer of its data. */
    public boolean isBulkOffered() {
        return bulkOffered;
    }

    /** Whether this message came from an {@link UnexpectedPool} (and may go back to it once received). */
    public boolean isPooled() {
        return pooled;
    }

    /** An eager synchronous send whose sender waits for an acknowledgement. */
    public boolean isSynchronous() {
        return synchronous;
    }
}
