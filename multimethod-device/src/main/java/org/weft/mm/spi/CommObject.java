package org.weft.mm.spi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A link to one peer by one method, shared by every startpoint that reaches that peer by that method.
 * Thread-safe: concurrent senders are serialised inside, and RSRs sent by one thread arrive in order.
 */
public interface CommObject {
    /**
     * Sends one RSR to {@code endpointId}/{@code handlerId} on the peer: {@code header} (from its position to its
     * limit) followed by {@code payload}. When the result is {@link SendStatus#SENT} the module no longer needs
     * either buffer (it has copied or written them); when it is {@link SendStatus#BACK_PRESSURED} it took nothing
     * and the caller retries later.
     */
    SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload);

    /** This link's in-place transfer of large data, or {@code null} when the method has none. */
    default BulkTransfer bulk() {
        return null;
    }

    /** This link's copy of large data by the receiver out of the sender's memory, or {@code null}. */
    default SingleCopy singleCopy() {
        return null;
    }

    /**
     * Why this link never reached its peer, when it did not (tcp: no address of the peer answered), else
     * {@code null}. Such a link took no RSR and answers {@link SendStatus#FAILED}: the selection policy passes over
     * it to the next method in the user's order, and the startpoint sends its waiting RSRs there (direct tcp first,
     * a relay when direct cannot connect).
     */
    default String unreachableBecause() {
        return null;
    }

    /** The name of the method this object belongs to. */
    String methodName();
}
