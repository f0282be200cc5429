package org.weft.mm.spi;

import java.nio.ByteBuffer;

/** Receives the RSRs a module has taken off its link, after the link proved it belongs to the job. */
public interface RsrSink {
    /**
     * Runs the handler {@code handlerId} of endpoint {@code endpointId} on {@code body} (little-endian, from its
     * position to its limit, valid only during the call). Throws {@link MalformedRsrException} when the RSR does
     * not make sense; the module then closes the link it came on, and the job goes on.
     */
    void deliver(int sourceRank, int endpointId, int handlerId, ByteBuffer body);
}
