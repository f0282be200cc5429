package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The streams an auto-tuned path takes per message size, from its round trip and one- and many-stream rates. */
class StreamChoiceTest {
    private static final long RTT = 100_000_000L; // 100 ms
    private static final long MIB = 1 << 20;

    @Test
    void aPathOneStreamFillsTakesTwoStreamsAtMost() {
        long rate = 50_000_000L; // 400 Mbit/s by one stream and by many: nothing to gain
        assertEquals(2, StreamChoice.streams(512 * MIB, RTT, rate, rate, 32, true));
        assertEquals(1, StreamChoice.streams(2 * MIB, RTT, rate, rate, 32, true));
    }

    @Test
    void onALossyPathLargerMessagesTakeMoreStreamsUpToWhatFillsItAndMax() {
        long one = 3_700_000L; // ~30 Mbit/s: a window of ~370 KB
        long many = 37_000_000L; // ten times that with many streams
        int small = StreamChoice.streams(2 * MIB, RTT, one, many, 32, true);
        int middle = StreamChoice.streams(8 * MIB, RTT, one, many, 32, true);
        int large = StreamChoice.streams(512 * MIB, RTT, one, many, 32, true);
        assertEquals(5, small); // 2 MiB is five windows of one stream
        assertTrue(small < middle && middle <= large, small + " " + middle + " " + large);
        assertEquals(20, large); // twice many/one
        assertEquals(16, StreamChoice.streams(512 * MIB, RTT, one, many, 16, true));
    }

    @Test
    void anUnmeasuredPathGuesses() {
        assertEquals(StreamChoice.GUESS, StreamChoice.streams(64 * MIB, 0, 0, 0, 32, false));
        assertEquals(4, StreamChoice.streams(64 * MIB, 0, 0, 0, 4, false));
    }
}
