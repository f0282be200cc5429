package org.weft.mm.module.relay;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What a relay writes on a rank's control connection (the one its {@link RelayRequest.Kind#REGISTER} opened): a
 * length (u32) and a body, little-endian. REGISTERED: an empty body, once, when the rank is registered. DIAL: the
 * session (i64) and the rank (i32) whose path waits for this rank: the rank dials the relay and sends
 * {@link RelayRequest.Kind#ACCEPT} for that session.
 */
public final class ControlMessages {
    public static final int DIAL_LENGTH = 12;

    private ControlMessages() {
    }

    public static ByteBuffer registered() {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 0);
    }

    public static ByteBuffer dial(long session, int fromRank) {
        return ByteBuffer.allocate(4 + DIAL_LENGTH).order(ByteOrder.LITTLE_ENDIAN).putInt(DIAL_LENGTH)
                .putLong(session).putInt(fromRank).flip();
    }
}
