package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.spi.SendStatus;

/**
 * What one poll of a ring takes: a record that arrives in a ring last seen empty is delivered alone (its receiver
 * may be waiting to answer it), records found waiting are drained up to the budget; and each body as it was sent.
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

    /** Headers are copied word by word when they can be, in bulk otherwise: either way byte for byte. */
    @ParameterizedTest
    @ValueSource(ints = {0, 8, 12, 40, 64, 72, 200})
    void aHeaderArrivesByteForByteWhateverItsLengthAndByteOrder(int length) {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            byte[] bytes = new byte[length + 5];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 37 + 11);
            }
            ByteBuffer header = ByteBuffer.wrap(bytes).order(order).position(3).limit(3 + length);
            byte[] payload = {1, 2, 3};
            List<byte[]> bodies = new ArrayList<>();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment ring = arena.allocate(RingLayout.ringLength(CAPACITY), 4096);
                RingWriter writer = new RingWriter(ring, CAPACITY);
                RingReader reader = new RingReader(1, ring, CAPACITY);

                assertEquals(SendStatus.SENT, writer.offer(1, 2, header, MemorySegment.ofArray(payload)));
                reader.poll(16, (source, endpoint, handler, body) -> {
                    byte[] copy = new byte[body.remaining()];
                    body.duplicate().get(copy);
                    bodies.add(copy);
                }, message -> { });
            }
            byte[] expected = new byte[length + payload.length];
            System.arraycopy(bytes, 3, expected, 0, length);
            System.arraycopy(payload, 0, expected, length, payload.length);
            assertEquals(1, bodies.size());
            assertArrayEquals(expected, bodies.get(0), order + ", a " + length + "-byte header");
            assertEquals(3, header.position(), "the header's indices stay");
            assertEquals(3 + length, header.limit());
        }
    }

    private static void offer(RingWriter writer, int records) {
        for (int i = 0; i < records; i++) {
            assertEquals(SendStatus.SENT, writer.offer(1, 2, ByteBuffer.allocate(40), MemorySegment.NULL));
        }
    }
}
