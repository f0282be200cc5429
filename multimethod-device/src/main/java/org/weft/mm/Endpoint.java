package org.weft.mm;

import org.weft.mm.spi.MalformedRsrException;

import java.nio.ByteBuffer;

/**
 * A place RSRs are addressed to inside a context: an id and its handler table. Handlers are registered before
 * the context meets its peers and never change afterwards, so lookups need no lock.
 */
public final class Endpoint {
    private static final int MAX_HANDLERS = 16;

    private final int id;
    private final RsrHandler[] handlers = new RsrHandler[MAX_HANDLERS];

    Endpoint(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** Attaches {@code handler} as handler {@code handlerId}; done while the context is being set up. */
    public void register(int handlerId, RsrHandler handler) {
        if (handlers[handlerId] != null) {
            throw new IllegalStateException("handler " + handlerId + " of endpoint " + id + " already registered");
        }
        handlers[handlerId] = handler;
    }

    void run(int sourceRank, int handlerId, ByteBuffer body) {
        RsrHandler handler = handlerId >= 0 && handlerId < MAX_HANDLERS ? handlers[handlerId] : null;
        if (handler == null) {
            throw new MalformedRsrException("no handler " + handlerId + " at endpoint " + id);
        }
        handler.handle(sourceRank, body);
    }
}
