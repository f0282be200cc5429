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
 * that ended by an exception leaves it posted, and reusing it would post one request twice. Requests of nonblocking
 * operations handed back by the API ({@code retire}) serve the same thread's next operations, and only complete
 * ones that belong to no thread are kept.
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

    @Test
    void aRetiredReceiveServesThisThreadsNextReceiveOnly() throws Exception {
        byte[] first = new byte[4];
        DeviceRequest posted = p2p.startRecv(null, MemorySegment.ofArray(first), 0, 5, 0);
        p2p.retire(posted); // not complete: not kept
        DeviceRequest other = p2p.startRecv(null, MemorySegment.ofArray(new byte[4]), 0, 6, 0);
        assertNotSame(posted, other);
        arrive(5, new byte[] {5, 5, 5, 5});
        arrive(6, new byte[] {6, 6, 6, 6});
        assertTrue(posted.isComplete() && other.isComplete());

        p2p.retire(posted);
        DeviceRequest[] elsewhere = new DeviceRequest[1];
        Thread thread = new Thread(() -> elsewhere[0] = p2p.startRecv(null, MemorySegment.ofArray(new byte[4]), 0,
                7, 0));
        thread.start();
        thread.join();
        assertNotSame(posted, elsewhere[0], "another thread's receive does not take this thread's retired one");

        byte[] second = new byte[4];
        DeviceRequest next = p2p.startRecv(null, MemorySegment.ofArray(second), 0, 8, 0);
        assertSame(posted, next, "this thread's next receive reuses it");
        assertFalse(next.isComplete(), "posted again");
        arrive(8, new byte[] {8, 8, 8, 8});
        assertTrue(next.isComplete());
        assertArrayEquals(new byte[] {8, 8, 8, 8}, second);
        assertArrayEquals(new byte[] {5, 5, 5, 5}, first, "the first receive's buffer is left alone");
    }

    @Test
    void aThreadsOwnBlockingRequestIsNeverRetired() {
        DeviceRequest own = p2p.reusableRecv();
        p2p.retire(own);
        DeviceRequest next = p2p.startRecv(null, MemorySegment.ofArray(new byte[4]), 0, 9, 0);
        assertNotSame(own, next, "a nonblocking receive does not take the thread's blocking request");
        assertSame(own, p2p.reusableRecv(), "which stays the thread's");
    }
}
