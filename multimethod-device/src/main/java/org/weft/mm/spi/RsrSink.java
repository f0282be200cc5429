package org.weft.mm.spi;

import org.weft.mm.stats.MethodCounters;

import java.nio.ByteBuffer;

/** Receives the RSRs a module has taken off its link, after the link proved it belongs to the job. */
public interface RsrSink {
    /**
     * Runs the handler {@code handlerId} of endpoint {@code endpointId} on {@code body} (little-endian, from its
     * position to its limit, valid only during the call). Throws {@link MalformedRsrException} when the RSR does
     * not make sense; the module then closes the link it came on, and the job goes on.
     */
    void deliver(int sourceRank, int endpointId, int handlerId, ByteBuffer body);

    /**
     * This sink, counting each RSR in {@code traffic} before it runs: for a module's deliveries that one writer at
     * a time makes (a poller holding its token), as {@code traffic} needs.
     */
    default RsrSink countingIn(MethodCounters.Traffic traffic) {
        return (sourceRank, endpointId, handlerId, body) -> {
            traffic.delivered(body.remaining());
            deliver(sourceRank, endpointId, handlerId, body);
        };
    }
}
