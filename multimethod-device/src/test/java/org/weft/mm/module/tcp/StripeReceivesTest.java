package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.weft.mm.spi.BulkTransfer;

/** The striped messages a process receives: placed by offset, failed with their sender's stripes. */
class StripeReceivesTest {
    private final StripeReceives receives = new StripeReceives();
    private final List<String> heard = new ArrayList<>();

    @Test
    void chunksInAnyOrderCompleteTheReceive() {
        byte[] into = new byte[8];
        receives.expect(1, 5, MemorySegment.ofArray(into), listener());
        receives.chunk(1, chunk(5, 4, new byte[] {5, 6, 7, 8}));
        receives.chunk(1, chunk(5, 0, new byte[] {1, 2, 3, 4}));
        assertEquals(List.of("done"), heard);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, into);
    }

    /**
     * The sender's stripes failed (STRIPES_FAILED, or a stripe's connection lost): the receive fails, and chunks of
     * it that still come on the sender's other stripes are dropped, not taken for a garbled stream (which closes the
     * connection they came on), nor written into memory that is the program's again.
     */
    @Test
    void aFailedReceivesLateChunksAreDroppedAndTouchNothing() {
        byte[] into = new byte[8];
        receives.expect(1, 5, MemorySegment.ofArray(into), listener());
        assertEquals(1, receives.sourceLost(1, "rank 1 says: stream 0 of 4 failed"));
        receives.chunk(1, chunk(5, 0, new byte[] {1, 2, 3, 4}));
        assertEquals(List.of("failed: rank 1 says: stream 0 of 4 failed"), heard);
        assertArrayEquals(new byte[8], into);
        assertThrows(IllegalArgumentException.class, () -> receives.chunk(1, chunk(6, 0, new byte[] {1})),
                "a chunk of a transfer nobody started is still refused");
    }

    private BulkTransfer.Listener listener() {
        return new BulkTransfer.Listener() {
            @Override
            public void done() {
                heard.add("done");
            }

            @Override
            public void failed(String why) {
                heard.add("failed: " + why);
            }
        };
    }

    private static ByteBuffer chunk(long id, long offset, byte[] bytes) {
        ByteBuffer body = ByteBuffer.allocate(FrameLayout.CHUNK_HEAD + bytes.length).order(ByteOrder.LITTLE_ENDIAN);
        body.putLong(id).putLong(offset).put(bytes).flip();
        return body;
    }
}
