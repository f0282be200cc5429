package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.mm.spi.SendStatus;

/**
 * The ring's publication protocol under a writer and a reader on two threads: records of random sizes (one cache
 * line to a quarter of the ring), many laps of a small ring with padding and back-pressure, every byte and the
 * order checked — what the zero Length ahead of the tail, written before or after a publication, must keep.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RingStressTest {
    private static final int RECORDS = 200_000;

    @ParameterizedTest
    @ValueSource(longs = {4096, 65536})
    void recordsOfRandomSizesArriveWholeAndInOrderOverManyLaps(long capacity) throws Exception {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment ring = arena.allocate(RingLayout.ringLength(capacity), 4096);
            int largest = (int) Math.min(RingLayout.maxBody(capacity) / 4, 3000);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    write(new RingWriter(ring, capacity), largest);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "ring-writer");
            writer.start();
            read(new RingReader(1, ring, capacity), largest, failure);
            writer.join();
            if (failure.get() != null) {
                fail("the writer failed", failure.get());
            }
        }
    }

    /** Record i: a 40-byte header holding i, then a payload of a size drawn from i's seed, filled from i. */
    private static void write(RingWriter writer, int largest) {
        ByteBuffer header = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        MemorySegment payload = Arena.ofAuto().allocate(largest);
        for (int i = 0; i < RECORDS; i++) {
            header.putLong(0, i);
            int size = sizeOf(i, largest);
            fill(payload, i, size);
            while (writer.offer(1, 2, header, payload.asSlice(0, size)) == SendStatus.BACK_PRESSURED) {
                Thread.onSpinWait();
            }
        }
    }

    private static void read(RingReader reader, int largest, AtomicReference<Throwable> failure) {
        int[] next = {0};
        MemorySegment expected = Arena.ofAuto().allocate(largest);
        // stuck means no record for 30 s: the whole run takes seconds quiet, minutes at load 30 (each lap of the small
        // ring waits for the other thread to get a core), so the limit is on progress, not on the total
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (next[0] < RECORDS) {
            int delivered = reader.poll(16, (source, endpoint, handler, body) -> {
                int i = next[0]++;
                assertEquals(1, endpoint);
                assertEquals(2, handler);
                assertEquals(i, body.getLong(body.position()), "record order");
                int size = sizeOf(i, largest);
                assertEquals(40 + size, body.remaining(), "record " + i + "'s length");
                fill(expected, i, size);
                MemorySegment got = MemorySegment.ofBuffer(body).asSlice(40, size);
                assertEquals(-1, got.mismatch(expected.asSlice(0, size)), "record " + i + "'s payload");
            }, line -> fail("the reader refused the ring: " + line));
            if (delivered > 0) {
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            } else if (failure.get() != null || System.nanoTime() > deadline) {
                fail("stuck at record " + next[0] + " of " + RECORDS + " for 30 s", failure.get());
            }
        }
    }

    /** Mostly one-line records (the zero-ahead case), some of many lines. */
    private static int sizeOf(int i, int largest) {
        SplittableRandom random = new SplittableRandom(i);
        return random.nextInt(4) == 0 ? random.nextInt(largest + 1) : random.nextInt(17);
    }

    private static void fill(MemorySegment segment, int i, int size) {
        for (int k = 0; k < size; k++) {
            segment.set(ValueLayout.JAVA_BYTE, k, (byte) (i * 31 + k));
        }
    }

    @Test
    void aPublicationZeroesTheStartsOfOneMoreRecordAsLongAndNoFurther() {
        // not a timing test: what the writer touches ahead of its tail once a record is out
        long capacity = 16 * 1024;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(RingLayout.ringLength(capacity), 4096);
            MemorySegment data = ring.asSlice(RingLayout.CONTROL_LENGTH, capacity);
            data.fill((byte) 0x5a); // a lap's leftovers
            RingWriter writer = new RingWriter(ring, capacity);
            MemorySegment payload = MemorySegment.ofArray(new byte[1000]);
            assertEquals(SendStatus.SENT, writer.offer(0, 0, ByteBuffer.allocate(40), payload));
            int record = RingLayout.align(RingLayout.RECORD_HEADER_LENGTH + 40 + 1000);
            for (long at = record; at <= 2L * record; at += RingLayout.ALIGNMENT) {
                assertEquals(0, data.get(RingAccess.INT, at), "the Length at " + at);
            }
            assertEquals(0x5a5a5a5a, data.get(RingAccess.INT, 2L * record + RingLayout.ALIGNMENT), "past the zeroing");
        }
    }

    @Test
    void aRingOfOneLineRecordsNeedsNoStoreAheadOfItsRecordOnceWarm() {
        // not a timing test: the zero ahead of the tail is written after each publication, so every start from the
        // tail to a line beyond it reads zero while a record is being written
        long capacity = 4096;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ring = arena.allocate(RingLayout.ringLength(capacity), 4096);
            MemorySegment data = ring.asSlice(RingLayout.CONTROL_LENGTH, capacity);
            data.fill((byte) 0x5a); // a lap's leftovers
            RingWriter writer = new RingWriter(ring, capacity);
            ByteBuffer header = ByteBuffer.allocate(40);
            MemorySegment none = MemorySegment.ofArray(new byte[0]);
            for (int i = 0; i < 3; i++) {
                assertEquals(SendStatus.SENT, writer.offer(0, 0, header, none));
                for (long at = (i + 1) * 64L; at <= (i + 2) * 64L; at += 64) {
                    assertEquals(0, data.get(RingAccess.INT, at), "the Length at " + at + " after record " + i);
                }
            }
        }
    }
}
