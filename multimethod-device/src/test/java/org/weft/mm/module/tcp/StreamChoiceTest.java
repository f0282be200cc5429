package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The streams an auto-tuned path takes per message size, from its one- and many-stream rates. */
class StreamChoiceTest {
    private static final long MIB = 1 << 20;
    private static final int CHUNK = 256 << 10;

    @Test
    void aPathOneStreamNearlyFillsTakesTwoStreams() {
        assertEquals(2, StreamChoice.streams(512 * MIB, CHUNK, 50_000_000L, 50_000_000L, 32, true));
        assertEquals(2, StreamChoice.streams(512 * MIB, CHUNK, 50_000_000L, 60_000_000L, 32, true));
        assertEquals(1, StreamChoice.streams(CHUNK, CHUNK, 50_000_000L, 50_000_000L, 32, true)); // one chunk
    }

    /** The emulated 100 ms / 400 Mbit/s path with 0.01 % loss: two probes saw 80 and 332, 227 and 430 Mbit/s. */
    @Test
    void aPathWhereStreamsAddUpTakesMaxUpToTheChunksOfTheMessage() {
        long one = 28_400_000L;
        long many = 53_750_000L;
        assertEquals(32, StreamChoice.streams(512 * MIB, CHUNK, one, many, 32, true));
        assertEquals(32, StreamChoice.streams(8 * MIB, CHUNK, one, many, 32, true));
        assertEquals(16, StreamChoice.streams(16 * MIB, CHUNK, one, many, 16, true));
        assertEquals(4, StreamChoice.streams(MIB, CHUNK, one, many, 32, true)); // four chunks
    }

    @Test
    void anUnmeasuredPathGuesses() {
        assertEquals(StreamChoice.GUESS, StreamChoice.streams(64 * MIB, CHUNK, 0, 0, 32, false));
        assertEquals(4, StreamChoice.streams(64 * MIB, CHUNK, 0, 0, 4, false));
    }
}
