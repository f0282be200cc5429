package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When an aggregate may wait, on a clock the test drives: adaptive aggregation on a path whose round trip is
 * measured holds each RSR up to a tenth of it (the whole window on a 10 ms path, as fixed aggregation does; a few
 * microseconds on loopback), and before the measurement balances the held RSRs' summed delay against a frame's cost.
 */
class AggregationTest {
    private static final long US = TimeUnit.MICROSECONDS.toNanos(1);
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private static Aggregation adaptive() {
        return new Aggregation(AggregationPolicy.of(AggregationPolicy.Mode.ADAPTIVE, 1000, 64, 32 * 1024, 1000), 0);
    }

    /** 100 RSRs {@code gap} apart, each written at once, so that the mean gap is {@code gap}; returns the time next. */
    private static long learnRate(Aggregation a, long gap) {
        long now = 0;
        for (int i = 0; i < 100; i++, now += gap) {
            a.added(64, now);
            a.written();
        }
        return now;
    }

    /** Adds RSRs {@code gap} apart from {@code start} until the aggregate may not wait; returns how many it held. */
    private static int heldUntilWritten(Aggregation a, long start, long gap) {
        long now = start;
        for (int n = 1; n <= 1000; n++) {
            a.added(64, now);
            if (!a.mayWait(now)) {
                a.written();
                return n;
            }
            now += gap;
        }
        throw new AssertionError("never written");
    }

    @Test
    void onATenMillisecondPathAdaptiveHoldsAsLongAsTheFixedWindow() {
        Aggregation a = adaptive();
        a.roundTrip(10 * MS);
        assertEquals(MS, a.relativeHold(), "a tenth of 10 ms, the window");
        int held = heldUntilWritten(a, learnRate(a, 20 * US), 20 * US);
        assertTrue(held >= 45, "RSRs 20 us apart for 1 ms: " + held + " in one frame");
        a.added(64, 20 * MS);
        assertFalse(a.due(20 * MS + 900 * US));
        assertTrue(a.due(20 * MS + MS));
    }

    @Test
    void onLoopbackAdaptiveHoldsOnlyMicroseconds() {
        Aggregation a = adaptive();
        a.roundTrip(50 * US);
        a.roundTrip(80 * US); // the least round trip counts
        assertEquals(5 * US, a.relativeHold());
        int held = heldUntilWritten(a, learnRate(a, US), US);
        assertTrue(held <= 5, "RSRs 1 us apart, at most 5 us: " + held + " in one frame");
        a.added(64, 2 * MS);
        assertTrue(a.due(2 * MS + 5 * US), "due after a tenth of the round trip");
    }

    @Test
    void beforeTheRoundTripIsKnownTheHeldDelaysAreBalancedAgainstAFramesCost() {
        Aggregation a = adaptive();
        int held = heldUntilWritten(a, learnRate(a, 20 * US), 20 * US);
        assertTrue(held > 1 && held < 15, "n (age + gap) < 1 ms: " + held + " in one frame");
        assertEquals(0, a.relativeHold());
    }

    @Test
    void aFixedWindowIgnoresTheRoundTrip() {
        Aggregation a = new Aggregation(AggregationPolicy.of(AggregationPolicy.Mode.FIXED, 1000, 64, 32 * 1024,
                1000), 0);
        a.roundTrip(50 * US);
        assertEquals(0, a.relativeHold());
        assertEquals(51, heldUntilWritten(a, 0, 20 * US), "the window, 1 ms, ends the aggregate");
    }
}
