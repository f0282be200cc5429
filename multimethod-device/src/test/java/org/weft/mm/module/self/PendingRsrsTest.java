package org.weft.mm.module.self;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.weft.mm.stats.MethodCounters;

class PendingRsrsTest {
    private final PendingRsrs pending = new PendingRsrs();
    private final PendingRsrs.Taken taken = new PendingRsrs.Taken();
    private final MethodCounters.Traffic sent = new MethodCounters("self").newTraffic();

    private static byte[] bytes(int length, int seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }

    /** Adds an RSR whose header is {@code header} (read from position 2 of its buffer) and payload {@code payload}. */
    private void add(int endpoint, int handler, byte[] header, byte[] payload) {
        ByteBuffer headerBuffer = ByteBuffer.allocate(header.length + 2).position(2);
        headerBuffer.put(header).position(2);
        pending.add(endpoint, handler, headerBuffer, MemorySegment.ofArray(payload), sent);
        assertEquals(2, headerBuffer.position(), "the header is read, not consumed");
    }

    private byte[] takeBody() {
        assertTrue(pending.take(taken));
        ByteBuffer body = taken.body();
        byte[] got = new byte[body.remaining()];
        body.duplicate().get(got);
        return got;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void rsrsComeOutInOrderWithTheirIdsHeaderAndPayload() {
        assertTrue(pending.isEmpty());
        assertFalse(pending.take(taken));
        add(1, 2, bytes(40, 1), bytes(0, 2));
        add(3, 4, bytes(40, 3), bytes(1000, 4));
        assertFalse(pending.isEmpty());
        assertArrayEquals(concat(bytes(40, 1), bytes(0, 2)), takeBody());
        assertEquals(1, taken.endpointId);
        assertEquals(2, taken.handlerId);
        assertArrayEquals(concat(bytes(40, 3), bytes(1000, 4)), takeBody());
        assertEquals(3, taken.endpointId);
        assertEquals(4, taken.handlerId);
        assertTrue(pending.isEmpty());
        assertFalse(pending.take(taken));
    }

    /** Records of random sizes (up to 200 KiB, beyond the initial 64 KiB array) added and taken in random turns. */
    @Test
    void anyMixOfAddsAndTakesKeepsOrderAndContent() {
        Random random = new Random(7);
        ArrayDeque<byte[]> expected = new ArrayDeque<>();
        int seed = 0;
        for (int step = 0; step < 5000; step++) {
            if (expected.isEmpty() || random.nextInt(3) > 0) {
                int size = random.nextInt(10) == 0 ? random.nextInt(200_000) : random.nextInt(300);
                byte[] header = bytes(8, seed);
                byte[] payload = bytes(size, seed + 1);
                seed += 2;
                add(seed, -seed, header, payload);
                expected.add(concat(header, payload));
            } else {
                assertArrayEquals(expected.poll(), takeBody(), "step " + step);
            }
        }
        while (!expected.isEmpty()) {
            assertArrayEquals(expected.poll(), takeBody());
        }
        assertTrue(pending.isEmpty());
    }

    @Test
    void theTakenRsrIsDeliveredFromOneBufferWhileItFits() {
        add(0, 0, bytes(8, 1), bytes(100, 2));
        add(0, 0, bytes(8, 3), bytes(50, 4));
        assertTrue(pending.take(taken));
        ByteBuffer first = taken.body();
        assertTrue(pending.take(taken));
        assertTrue(first == taken.body(), "the same buffer, for the device's view of it");
        assertEquals(58, taken.body().remaining());
    }

    @Test
    void clearDropsWhatWasNotTaken() {
        add(0, 0, bytes(8, 1), bytes(10, 2));
        pending.clear();
        assertTrue(pending.isEmpty());
        assertFalse(pending.take(taken));
        add(5, 6, bytes(8, 3), bytes(10, 4));
        assertArrayEquals(concat(bytes(8, 3), bytes(10, 4)), takeBody());
    }
}
