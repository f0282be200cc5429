package org.weft.mm.module.tcp;

/**
 * The stream count an auto-tuned wide-area path uses for a message, from what its measurement saw: the round trip,
 * one stream's throughput {@code one} and {@code max} streams' {@code many} (bytes per second, each over the second
 * half of a short burst).
 *
 * <ul>
 *   <li>Streams that fill the path. When one stream gets nearly what many get ({@code many / one} under
 *       {@value #ADDING_UP}), the path is full with one: two streams. When streams add up at all, the path is lossy
 *       or window-bound per stream, and the burst's one-stream rate flatters a stream, by how much depends on
 *       whether a loss fell in it (on the emulated 100 ms path with 0.01 % loss one burst saw 80 Mbit/s, another
 *       227, where a stream sustains 14-16): {@code max} streams then (a stream more than needed costs little on a
 *       full path: 64 against 32 streams, -12 % to +18 %).</li>
 *   <li>Streams a message can keep busy: no more than its chunks.</li>
 * </ul>
 * Within {@code [1, max]}. Unmeasured: {@link #GUESS} streams. (The first design also held a stream to four of its
 * windows of the message, after MPWide's 1 stream for 8 MB; on the emulated lossy path streams stay open and warm
 * between messages, 32 streams carried 8 MiB 8x faster than one, and the bound cost 8 MiB three quarters.)
 */
final class StreamChoice {
    /** Streams of an auto path whose measurement failed or has not come. */
    static final int GUESS = 8;
    /** The ratio many / one above which streams are taken to add up (the path is not full with a few). */
    static final double ADDING_UP = 1.3;
    /** The streams of a path one stream nearly fills (one more than it needs, for a stream slowed by a loss). */
    static final int FILL_MARGIN = 2;

    private StreamChoice() {
    }

    static int streams(long size, int chunk, long one, long many, int max, boolean measured) {
        long chunks = Math.max(1, (size + chunk - 1) / chunk);
        if (!measured || one <= 0) {
            return (int) Math.clamp(Math.min(GUESS, chunks), 1, max);
        }
        double ratio = (double) Math.max(many, one) / one;
        long fill = ratio >= ADDING_UP ? max : FILL_MARGIN;
        return (int) Math.clamp(Math.min(fill, chunks), 1, max);
    }
}
