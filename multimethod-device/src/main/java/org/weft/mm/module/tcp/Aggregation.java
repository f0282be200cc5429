package org.weft.mm.module.tcp;

/**
 * The aggregate of one link: the RSRs appended to its {@link OutboundBuffer} since its last write, and when to write
 * them ({@link AggregationPolicy}). Plain fields under the link's lock; no allocation. Counts what the link wrote:
 * RSRs and the writes (physical frames) that carried them.
 */
final class Aggregation {
    /** Adaptive, on a measured path: an RSR waits at most this fraction of the round trip. */
    static final int RELATIVE_HOLD_DIVISOR = 10;
    /** Round trips an adaptive link measures (PINGs, one at a time); the least counts. */
    static final int PINGS = 3;
    private final AggregationPolicy policy;
    private final boolean adaptive;
    /** RSRs and bytes appended since the last write, and when the first of them was. */
    private int held;
    private int heldBytes;
    private long heldSince;
    /** When the last RSR was sent, and the mean gap between sends (a moving average, 1/8 per send). */
    private long lastSend;
    private long meanGap;
    private long rsrs;
    private long frames;
    /**
     * Adaptive, once the path's round trip is measured: the longest an RSR waits, a tenth of the round trip (at
     * most the window); 0 until then. Written by the thread that reads the PONG, read under the link's lock.
     */
    private volatile long relativeHold;

    Aggregation(AggregationPolicy policy, long now) {
        this.policy = policy;
        this.adaptive = policy.mode() == AggregationPolicy.Mode.ADAPTIVE;
        this.lastSend = now;
        this.meanGap = policy.windowNanos(); // no rate known yet: as if sends were rare
    }

    /** An RSR of {@code frameLength} bytes joined the aggregate at {@code now}. */
    void added(int frameLength, long now) {
        long gap = Math.min(now - lastSend, policy.windowNanos());
        lastSend = now;
        meanGap += (gap - meanGap) >> 3;
        if (held == 0) {
            heldSince = now;
        }
        held++;
        heldBytes += frameLength;
    }

    /** Whether the aggregate, just grown at {@code now}, may wait for more; false: write it now. */
    boolean mayWait(long now) {
        if (held >= policy.maxCount() || heldBytes >= policy.maxBytes()) {
            return false;
        }
        long age = now - heldSince;
        if (age >= policy.windowNanos()) {
            return false;
        }
        if (!adaptive) {
            return true;
        }
        long hold = relativeHold;
        return hold > 0 ? age + meanGap < hold : held * (age + meanGap) < policy.frameCostNanos();
    }

    /**
     * The path's round trip, measured (a PONG): from now on adaptive holds an RSR while the wait, and the next RSR's
     * expected gap, stay within a tenth of it, as the one-way trip every RSR takes anyway dwarfs that. On a 10 ms
     * path that is the whole window (1 ms), as fixed aggregation; on loopback (tens of microseconds) a few
     * microseconds, so nothing waits longer than it costs there. The least round trip seen counts.
     */
    void roundTrip(long rttNanos) {
        long hold = Math.min(policy.windowNanos(), Math.max(1, rttNanos / RELATIVE_HOLD_DIVISOR));
        long known = relativeHold;
        if (adaptive && (known == 0 || hold < known)) {
            relativeHold = hold;
        }
    }

    /** Adaptive, on a measured path: the longest an RSR waits (ns); 0 before the measurement or when fixed. */
    long relativeHold() {
        return relativeHold;
    }


    /** Bytes of the RSRs held (all of the link's queue while it holds). */
    int heldBytes() {
        return heldBytes;
    }

    /** Whether RSRs wait. */
    boolean holding() {
        return held > 0;
    }

    /** Whether what waits is due at {@code now} (a poll writes it then). */
    boolean due(long now) {
        long age = now - heldSince;
        if (age >= policy.windowNanos()) {
            return true;
        }
        long hold = relativeHold;
        return adaptive && (hold > 0 ? age >= hold : held * age >= policy.frameCostNanos());
    }

    /** The link wrote its queue: what was held went out in one frame. */
    void written() {
        if (held > 0) {
            rsrs += held;
            frames++;
            held = 0;
            heldBytes = 0;
        }
    }

    AggregationPolicy policy() {
        return policy;
    }

    /** For the report: RSRs written and the frames that carried them (read without the lock: may lag). */
    long rsrs() {
        return rsrs;
    }

    long frames() {
        return frames;
    }
}
