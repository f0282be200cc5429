package org.weft.mm.module.nativempi;

import java.nio.ByteBuffer;
import org.weft.mm.spi.RsrSink;

/**
 * The sink of one probe process: keeps a copy of the last RSR in a reused array and counts them. Deliveries happen
 * during {@code poll()} on the probe's one thread, so nothing here is synchronised.
 */
final class ProbeSink implements RsrSink {
    private byte[] last = new byte[1 << 16];
    private int lastLength;
    private int lastSource = -1;
    private int lastHandler = -1;
    private long count;
    /** The sequence number the next RSR of {@link #SEQUENCED} must carry in its first four bytes. */
    private int nextSequence;
    private String sequenceError;
    /** Off while timing: the bench measures the module, not a copy into a Java array. */
    private boolean copying = true;

    /** RSRs to this handler carry a little-endian sequence number that must rise by one each time. */
    static final int SEQUENCED = 9;

    @Override
    public void deliver(int sourceRank, int endpointId, int handlerId, ByteBuffer body) {
        int length = body.remaining();
        if (copying) {
            if (length > last.length) {
                last = new byte[Integer.highestOneBit(length - 1) << 1];
            }
            body.get(body.position(), last, 0, length);
        }
        lastLength = length;
        lastSource = sourceRank;
        lastHandler = handlerId;
        count++;
        if (handlerId == SEQUENCED && sequenceError == null) {
            int got = body.order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(body.position());
            if (got != nextSequence) {
                sequenceError = "sequenced RSR " + nextSequence + " arrived as " + got;
            }
            nextSequence++;
        }
    }

    /** How many sequenced RSRs arrived; throws when one came out of order. */
    int sequenced() {
        if (sequenceError != null) {
            throw new IllegalStateException(sequenceError);
        }
        return nextSequence;
    }

    /** Whether deliveries copy the body (for checks) or only count it (for timing). */
    void copying(boolean copy) {
        this.copying = copy;
    }

    long count() {
        return count;
    }

    byte[] last() {
        return last;
    }

    int lastLength() {
        return lastLength;
    }

    int lastSource() {
        return lastSource;
    }

    int lastHandler() {
        return lastHandler;
    }
}
