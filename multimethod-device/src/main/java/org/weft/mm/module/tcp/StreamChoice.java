package org.weft.mm.module.tcp;

/**
 * The stream count an auto-tuned wide-area path uses for a message, from what its measurement saw: the round trip
 * {@code rtt}, one stream's throughput {@code one} and many streams' {@code many} (bytes per second).
 *
 * <ul>
 *   <li>Streams that fill the path: {@code many / one} of them would carry what many streams got if streams added
 *       up; they add up less well than that when they share a queue, so twice as many (a stream more than needed
 *       costs little on a full path, a stream too few leaves a share of it unused).</li>
 *   <li>Streams a message keeps busy: a stream is worth its slow start only when it carries at least one of its
 *       own windows ({@code one × rtt}) of the message; a smaller message on more streams ends in their ramps
 *       (MPWide saw 1 stream beat many for 8 MB on its path).</li>
 * </ul>
 * The smaller of the two, within {@code [1, max]}. Unmeasured: {@link #GUESS} streams.
 */
final class StreamChoice {
    /** Streams of an auto path whose measurement failed or has not come. */
    static final int GUESS = 8;
    /** Windows of its own a stream should carry of a message. */
    static final int WINDOWS_PER_STREAM = 1;
    /** How many times the linear estimate of the streams that fill the path are taken. */
    static final int FILL_MARGIN = 2;
    /** The smallest window assumed for a stream (what slow start begins with, about). */
    private static final long MIN_WINDOW = 64 << 10;

    private StreamChoice() {
    }

    static int streams(long size, long rttNanos, long one, long many, int max, boolean measured) {
        if (!measured || one <= 0 || rttNanos <= 0) {
            return Math.min(GUESS, max);
        }
        long fill = (long) Math.ceil(FILL_MARGIN * (double) Math.max(many, one) / one);
        long window = Math.max(MIN_WINDOW, (long) (one * (rttNanos / 1e9)));
        long busy = size / (WINDOWS_PER_STREAM * window);
        return (int) Math.clamp(Math.min(fill, busy), 1, max);
    }
}
