package org.weft.mm.proto;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.DeviceException;
import org.weft.adi.DeviceMessage;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.ProbeResult;
import org.weft.adi.Ranks;
import org.weft.adi.SendMode;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.SingletonBootstrap;
import org.weft.mm.MultimethodDevice;

import java.lang.foreign.MemorySegment;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Eager, rendezvous, synchronous, probe and cancel through the self method of a world of one. */
@Timeout(20)
class SingletonDeviceTest {
    private final MultimethodDevice device = MultimethodDevice.open(
            new WorldConfig(0, 1, "t", null, "s", Map.of("self_eager_limit", "1024")), new SingletonBootstrap());

    @AfterEach
    void finish() {
        device.finish();
    }

    private static int[] ints(int n, int seed) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = seed * 31 + i;
        }
        return a;
    }

    @Test
    void eagerAndRendezvousMessagesArriveIntact() {
        for (int n : new int[] {0, 1, 256, 257, 100_000}) {
            int[] sent = ints(n, n);
            int[] got = new int[n];
            DeviceRequest recv = device.irecv(MemorySegment.ofArray(got), 0, 3, 0);
            DeviceRequest send = device.isend(MemorySegment.ofArray(sent), 0, 3, 0, SendMode.STANDARD);
            device.await(send);
            device.await(recv);
            assertArrayEquals(sent, got);
            assertEquals(4L * n, recv.byteCount());
            assertEquals(ErrorClass.SUCCESS, recv.error());
            assertEquals(0, recv.source());
            assertEquals(3, recv.tag());
        }
    }

    @Test
    void unexpectedRendezvousMatchesALaterReceive() {
        int[] sent = ints(5000, 1);
        DeviceRequest send = device.isend(MemorySegment.ofArray(sent), 0, 9, 0, SendMode.STANDARD);
        device.progress();
        assertFalse(send.isComplete(), "a rendezvous send waits for its receive");
        int[] got = new int[5000];
        DeviceRequest recv = device.irecv(MemorySegment.ofArray(got), Ranks.ANY_SOURCE, Ranks.ANY_TAG, 0);
        device.await(() -> send.isComplete() && recv.isComplete());
        assertArrayEquals(sent, got);
    }

    @Test
    void truncationIsReportedAndBytesBeyondAreUntouched() {
        for (int n : new int[] {10, 1000}) {
            byte[] big = new byte[n];
            java.util.Arrays.fill(big, (byte) 7);
            byte[] small = new byte[n + 4];
            small[n / 2] = 99;
            MemorySegment window = MemorySegment.ofArray(small).asSlice(0, n / 2);
            DeviceRequest recv = device.irecv(window, 0, 1, 0);
            device.await(device.isend(MemorySegment.ofArray(big), 0, 1, 0, SendMode.STANDARD));
            device.await(recv);
            assertEquals(ErrorClass.ERR_TRUNCATE, recv.error());
            assertEquals(n / 2, recv.byteCount());
            assertEquals(99, small[n / 2], "bytes past the receive buffer are not written");
        }
    }

    @Test
    void synchronousSendCompletesOnlyAfterTheMatch() {
        DeviceRequest send = device.isend(MemorySegment.ofArray(new byte[4]), 0, 2, 0, SendMode.SYNCHRONOUS);
        for (int i = 0; i < 10; i++) {
            device.progress();
        }
        assertFalse(send.isComplete());
        DeviceRequest recv = device.irecv(MemorySegment.ofArray(new byte[4]), 0, 2, 0);
        device.await(() -> send.isComplete() && recv.isComplete());
    }

    @Test
    void probeSeesAndMprobeTakesTheMessage() {
        device.isend(MemorySegment.ofArray(new long[3]), 0, 4, 5, SendMode.STANDARD);
        device.progress();
        assertNull(device.iprobe(0, 4, 6), "another context does not match");
        ProbeResult seen = device.iprobe(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 5);
        assertNotNull(seen);
        assertEquals(24, seen.byteCount());
        DeviceMessage message = device.improbe(0, 4, 5);
        assertNotNull(message);
        assertNull(device.iprobe(0, 4, 5), "a matched probe takes the message out of matching");
        DeviceRequest recv = device.imrecv(message, MemorySegment.ofArray(new long[3]));
        device.await(recv);
        assertEquals(24, recv.byteCount());
    }

    @Test
    void cancelOfAnUnmatchedReceive() {
        DeviceRequest recv = device.irecv(MemorySegment.ofArray(new byte[1]), 0, 1, 0);
        assertTrue(device.cancel(recv));
        assertTrue(recv.isComplete());
        assertTrue(recv.isCancelled());
        assertFalse(device.cancel(recv));
    }

    @Test
    void invalidRankAndTagAreRejectedWithTheirErrorClass() {
        MemorySegment b = MemorySegment.ofArray(new byte[1]);
        assertEquals(ErrorClass.ERR_RANK, assertThrows(DeviceException.class,
                () -> device.isend(b, 1, 0, 0, SendMode.STANDARD)).errorClass());
        assertEquals(ErrorClass.ERR_TAG, assertThrows(DeviceException.class,
                () -> device.isend(b, 0, -1, 0, SendMode.STANDARD)).errorClass());
        assertEquals(ErrorClass.ERR_TAG, assertThrows(DeviceException.class,
                () -> device.irecv(b, 0, -5, 0)).errorClass());
        assertTrue(device.irecv(b, Ranks.PROC_NULL, 0, 0).isComplete());
    }
}
