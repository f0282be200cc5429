package org.weft.mm.module;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.weft.mm.spi.MalformedRsrException;
import org.weft.mm.spi.RsrSink;

/**
 * An {@link RsrSink} that keeps a copy of every RSR delivered to it, in arrival order. It can be told to reject
 * some handler ids (as a real handler table rejects unknown ones) and to react to each RSR (to send a reply).
 */
public final class RecordingSink implements RsrSink {
    /** One delivered RSR; {@code order} is the byte order the body arrived in. */
    public record Rsr(int source, int endpoint, int handler, byte[] body, ByteOrder order) {
        /** The first four body bytes as a little-endian int (the tests' sequence numbers). */
        public int firstInt() {
            return ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        }
    }

    private final List<Rsr> received = new ArrayList<>();
    private volatile IntPredicate malformedHandler = h -> false;
    private volatile Consumer<Rsr> reaction = r -> { };

    /** Deliveries for handler ids matching {@code malformed} throw {@link MalformedRsrException}. */
    public void rejectHandlers(IntPredicate malformed) {
        this.malformedHandler = malformed;
    }

    /** Runs {@code reaction} on the delivering thread after each RSR is recorded. */
    public void onDeliver(Consumer<Rsr> reaction) {
        this.reaction = reaction;
    }

    @Override
    public void deliver(int sourceRank, int endpointId, int handlerId, ByteBuffer body) {
        if (malformedHandler.test(handlerId)) {
            throw new MalformedRsrException("test sink rejects handler " + handlerId);
        }
        byte[] copy = new byte[body.remaining()];
        body.get(body.position(), copy);
        Rsr rsr = new Rsr(sourceRank, endpointId, handlerId, copy, body.order());
        synchronized (this) {
            received.add(rsr);
            notifyAll();
        }
        reaction.accept(rsr);
    }

    public synchronized int count() {
        return received.size();
    }

    public synchronized List<Rsr> received() {
        return List.copyOf(received);
    }

    /** Waits up to {@code millis} for the count to pass {@code seen}. */
    public synchronized void awaitMore(int seen, long millis) throws InterruptedException {
        if (received.size() <= seen) {
            wait(millis);
        }
    }
}
