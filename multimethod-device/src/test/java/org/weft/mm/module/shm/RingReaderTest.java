package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.spi.SendStatus;

/**
 * How much one poll of a ring takes: a record that arrives in a ring last seen empty is delivered alone (its
 * receiver may be waiting to answer it), records found waiting are drained up to the budget.
 */
class RingReaderTest {
    private static final long CAPACITY = 4096;
    private static final RsrSink IGNORE = (source, endpoint, handler, body) -> { };

    @Test
    void aRecordArrivingInARingLastSeenEmptyIsDeliveredAloneAndWaitingOnesUpToTheBudget() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(RingLayout.ringLength(CAPACITY), 4096);
            RingWriter writer = new RingWriter(ring, CAPACITY);
            RingReader reader = new RingReader(1, ring, CAPACITY);

            offer(writer, 3);
            assertEquals(1, reader.poll(16, IGNORE, message -> { }), "the first record of a drained ring");
            assertEquals(2, reader.poll(16, IGNORE, message -> { }), "the records found waiting behind it");

            // The module skips poll() while mayHaveRecords() says "nothing": seeing the ring empty there counts.
            assertFalse(reader.mayHaveRecords());
            offer(writer, 2);
            assertEquals(1, reader.poll(16, IGNORE, message -> { }), "a record arriving after the empty look");
            assertEquals(1, reader.poll(16, IGNORE, message -> { }));
        }
    }

    private static void offer(RingWriter writer, int records) {
        for (int i = 0; i < records; i++) {
            assertEquals(SendStatus.SENT, writer.offer(1, 2, ByteBuffer.allocate(40), MemorySegment.NULL));
        }
    }
}
