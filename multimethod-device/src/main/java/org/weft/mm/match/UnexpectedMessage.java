package org.weft.mm.match;

import org.weft.adi.DeviceMessage;

/**
 * A message that arrived before its receive was posted: an eager one with its data copied aside, or the
 * envelope of a rendezvous one (its data stays with the sender until the receive answers with CTS).
 */
public final class UnexpectedMessage extends DeviceMessage {
    final int source;
    final int tag;
    final int context;
    private final long byteCount;
    private final byte[] eagerData;
    private final long senderRequest;
    private final boolean synchronous;
    private final boolean bulkOffered;

    private UnexpectedMessage(int source, int tag, int context, long byteCount, byte[] eagerData,
                              long senderRequest, boolean synchronous, boolean bulkOffered) {
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.byteCount = byteCount;
        this.eagerData = eagerData;
        this.senderRequest = senderRequest;
        this.synchronous = synchronous;
        this.bulkOffered = bulkOffered;
    }

    public static UnexpectedMessage eager(int source, int tag, int context, byte[] data, long senderRequest,
                                          boolean synchronous) {
        return new UnexpectedMessage(source, tag, context, data.length, data, senderRequest, synchronous, false);
    }

    /** {@code bulkOffered}: the sender can send the data by its link's bulk transfer. */
    public static UnexpectedMessage rendezvous(int source, int tag, int context, long byteCount,
                                               long senderRequest, boolean bulkOffered) {
        return new UnexpectedMessage(source, tag, context, byteCount, null, senderRequest, false, bulkOffered);
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

    /** The data of an eager message; {@code null} for a rendezvous one. */
    public byte[] eagerData() {
        return eagerData;
    }

    public boolean isRendezvous() {
        return eagerData == null;
    }

    public long senderRequest() {
        return senderRequest;
    }

    /** A rendezvous message whose sender offered a bulk transfer of its data. */
    public boolean isBulkOffered() {
        return bulkOffered;
    }

    /** An eager synchronous send whose sender waits for an acknowledgement. */
    public boolean isSynchronous() {
        return synchronous;
    }
}
