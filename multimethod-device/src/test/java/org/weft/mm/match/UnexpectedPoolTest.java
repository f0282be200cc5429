package org.weft.mm.match;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnexpectedPoolTest {
    private final UnexpectedPool pool = new UnexpectedPool();

    private static ByteBuffer body(int skip, byte[] data) {
        ByteBuffer body = ByteBuffer.allocate(skip + data.length + 3);
        body.put(skip, data);
        return body.position(3); // the copy reads from an absolute offset, not from the position
    }

    private static byte[] data(int length, int seed) {
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            data[i] = (byte) (seed + i * 7);
        }
        return data;
    }

    private static byte[] received(UnexpectedMessage m) {
        return Arrays.copyOf(m.eagerData(), (int) m.byteCount());
    }

    @Test
    void aSmallMessageCarriesItsEnvelopeAndACopyOfItsData() {
        byte[] data = data(40, 1);
        ByteBuffer body = body(16, data);
        UnexpectedMessage m = pool.eager(3, 9, 2, body, 16, data.length, 77, true);
        body.put(16, (byte) 0); // the arriving buffer is reused at once
        assertEquals(3, m.source());
        assertEquals(9, m.tag());
        assertEquals(2, m.context());
        assertEquals(77, m.senderRequest());
        assertTrue(m.isSynchronous());
        assertEquals(40, m.byteCount());
        assertArrayEquals(data, received(m));
        assertEquals(3, body.position());
    }

    @Test
    void aRecycledMessageIsReusedWithTheNextEnvelopeAndData() {
        UnexpectedMessage first = pool.eager(1, 1, 0, body(0, data(UnexpectedPool.POOLED_BYTES, 5)), 0,
                UnexpectedPool.POOLED_BYTES, 1, true);
        pool.recycle(first);
        byte[] data = data(3, 9);
        UnexpectedMessage second = pool.eager(4, 6, 1, body(8, data), 8, data.length, 2, false);
        assertSame(first, second);
        assertEquals(4, second.source());
        assertEquals(6, second.tag());
        assertEquals(1, second.context());
        assertEquals(2, second.senderRequest());
        assertEquals(false, second.isSynchronous());
        assertArrayEquals(data, received(second));
    }

    @Test
    void aLargerMessageIsItsOwnAndIsNotKept() {
        int length = UnexpectedPool.POOLED_BYTES + 1;
        byte[] data = data(length, 3);
        UnexpectedMessage large = pool.eager(1, 1, 0, body(0, data), 0, length, 1, false);
        assertEquals(length, large.eagerData().length);
        assertArrayEquals(data, received(large));
        pool.recycle(large);
        pool.recycle(UnexpectedMessage.eager(1, 1, 0, new byte[4], 1, false));
        pool.recycle(UnexpectedMessage.rendezvous(1, 1, 0, 1 << 20, 1, false));
        assertEquals(0, pool.kept());
        assertNotSame(large, pool.eager(1, 1, 0, body(0, data), 0, 8, 1, false));
    }

    @Test
    void atMostKeptMessagesAreKept() {
        List<UnexpectedMessage> taken = new ArrayList<>();
        for (int i = 0; i < UnexpectedPool.KEPT + 5; i++) {
            taken.add(pool.eager(1, i, 0, body(0, new byte[1]), 0, 1, i, false));
        }
        taken.forEach(pool::recycle);
        assertEquals(UnexpectedPool.KEPT, pool.kept());
    }
}
