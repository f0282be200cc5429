package org.weft.mm.match;

import java.nio.ByteBuffer;

/**
 * Small eager unexpected messages kept for reuse, so that messages arriving before their receives (the ranks of a
 * symmetric exchange drift, and half the messages then find no receive posted) make no garbage: a message whose data
 * fits {@link #POOLED_BYTES} is taken from here and given back once received. Larger ones, and those handed to the
 * program by a matched probe, are left to the collector.
 *
 * <p>Not thread-safe: the caller holds the matching engine's lock.
 */
public final class UnexpectedPool {
    /** The data capacity of a pooled message. */
    public static final int POOLED_BYTES = 256;
    /** The most messages kept: beyond these, arrivals waiting for their receives are allocated. */
    static final int KEPT = 64;

    private final UnexpectedMessage[] free = new UnexpectedMessage[KEPT];
    private int count;

    /**
     * An eager unexpected message with a copy of {@code length} bytes of {@code data} at {@code offset} (absolute:
     * the buffer's position is left alone).
     */
    public UnexpectedMessage eager(int source, int tag, int context, ByteBuffer data, int offset, int length,
                                   long senderRequest, boolean synchronous) {
        if (length > POOLED_BYTES) {
            byte[] copy = new byte[length];
            data.get(offset, copy);
            return UnexpectedMessage.eager(source, tag, context, copy, senderRequest, synchronous);
        }
        UnexpectedMessage m = count > 0 ? free[--count] : UnexpectedMessage.pooled(POOLED_BYTES);
        data.get(offset, m.eagerData(), 0, length);
        return m.reuse(source, tag, context, length, senderRequest, synchronous);
    }

    /** Takes back {@code m}, received and referenced no more, if it is a pooled one and there is room. */
    public void recycle(UnexpectedMessage m) {
        if (m.pooled && count < KEPT) {
            free[count++] = m;
        }
    }

    /** Messages kept for reuse now. */
    int kept() {
        return count;
    }
}
