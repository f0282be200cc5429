package org.weft.mm.proto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.weft.adi.DeviceRequest;
import org.weft.mm.Context;
import org.weft.mm.progress.Waiters;

/**
 * A thread's request for blocking receives is handed out for reuse only when it is not in flight: a blocking call
 * that ended by an exception leaves it posted, and reusing it would post one request twice.
 */
class ReusableRequestsTest {
    private final PointToPoint p2p = new PointToPoint(new Context(0, 1), new Waiters(), 256 * 1024);

    /** An eager message of {@code data} from rank 0 with {@code tag}, as enqueue message receives it. */
    private void arrive(int tag, byte[] data) {
        ByteBuffer body = ByteBuffer.allocate(MessageHeader.LENGTH + data.length).order(ByteOrder.LITTLE_ENDIAN);
        MessageHeader.write(body, MessageHeader.EAGER, (byte) 0, 0, tag, data.length, 1, 0);
        body.clear().put(MessageHeader.LENGTH, data); // the header leaves its limit at its end
        p2p.handle(0, body);
    }

    @Test
    void aReceiveStillPostedIsNotHandedOutAgain() {
        DeviceRequest reusable = p2p.reusableRecv();
        assertNotNull(reusable, "idle from the start");
        byte[] first = new byte[4];
        DeviceRequest abandoned = p2p.startRecv(reusable, MemorySegment.ofArray(first), 0, 5, 0);
        assertSame(reusable, abandoned);
        assertFalse(abandoned.isComplete());
        assertNull(p2p.reusableRecv(), "in flight");

        byte[] second = new byte[4];
        DeviceRequest next = p2p.startRecv(p2p.reusableRecv(), MemorySegment.ofArray(second), 0, 6, 0);
        assertNotSame(abandoned, next);
        arrive(6, new byte[] {6, 6, 6, 6});
        arrive(5, new byte[] {5, 5, 5, 5});
        assertTrue(next.isComplete() && abandoned.isComplete());
        assertArrayEquals(new byte[] {6, 6, 6, 6}, second);
        assertArrayEquals(new byte[] {5, 5, 5, 5}, first);
        assertSame(abandoned, p2p.reusableRecv(), "complete again: reused");
    }
}
