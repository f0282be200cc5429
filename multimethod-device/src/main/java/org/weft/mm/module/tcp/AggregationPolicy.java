package org.weft.mm.module.tcp;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How a path coalesces small RSRs to one peer into one write (TCPMPL's message aggregation), from
 * {@link TcpParameters#AGGREGATE} and the window parameters.
 *
 * <ul>
 *   <li>{@code off}: every RSR is written when it is sent.</li>
 *   <li>{@code fixed} (TCPMPL's fixed aggregation window, FAW): RSRs wait until the oldest is {@code window} old, or
 *       {@code count} RSRs or {@code bytes} bytes wait.</li>
 *   <li>{@code adaptive}: as fixed, and the wait also ends as soon as it costs more than it can save. Holding
 *       {@code n} RSRs for another {@code t} delays each of them by {@code t}; one write fewer saves a frame's cost
 *       {@code C} ({@code tcp_aggregate_frame_cost}). The next RSR is expected after the mean gap {@code g} between
 *       sends to this peer (TCPMPL's optimistic factor: the rate), the held ones have waited {@code age} (its
 *       pessimistic factor), so a send holds while {@code n * (age + g) < C} and a poll writes once
 *       {@code n * age >= C}. A peer sent to rarely ({@code g >= C}) gets each RSR at once. Once the link has
 *       measured the path's round trip {@code R} ({@link Aggregation#roundTrip}), a delay is weighed against the
 *       trip the RSR takes anyway: a send holds while {@code age + g < min(window, R / 10)}, and a poll writes once
 *       {@code age >= R / 10} (the whole window on a 10 ms path, microseconds on loopback).</li>
 * </ul>
 * Whatever the policy, a thread that waits writes what is held first ({@link TcpModule#flush()}), and RSRs larger
 * than {@code bytes} are never held (they end the aggregate before them).
 */
record AggregationPolicy(Mode mode, long windowNanos, int maxCount, int maxBytes, long frameCostNanos) {
    enum Mode { OFF, FIXED, ADAPTIVE }

    static final AggregationPolicy OFF = new AggregationPolicy(Mode.OFF, 0, 1, 0, 0);

    static Mode parseMode(String text) {
        try {
            return Mode.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("aggregation policy '" + text + "' is not off, fixed or adaptive");
        }
    }

    static AggregationPolicy of(Mode mode, int windowMicros, int maxCount, int maxBytes, int frameCostMicros) {
        if (mode == Mode.OFF) {
            return OFF;
        }
        return new AggregationPolicy(mode, TimeUnit.MICROSECONDS.toNanos(windowMicros), maxCount, maxBytes,
                TimeUnit.MICROSECONDS.toNanos(frameCostMicros));
    }

    boolean isOff() {
        return mode == Mode.OFF;
    }

    /** For the report: "adaptive (window 500 us, 64 RSRs, 32768 bytes, frame cost 100 us)". */
    String describe() {
        if (isOff()) {
            return "off";
        }
        return mode.name().toLowerCase(Locale.ROOT) + " (window " + TimeUnit.NANOSECONDS.toMicros(windowNanos)
                + " us, " + maxCount + " RSRs, " + maxBytes + " bytes"
                + (mode == Mode.ADAPTIVE ? ", frame cost " + TimeUnit.NANOSECONDS.toMicros(frameCostNanos) + " us"
                : "") + ")";
    }
}
