package org.weft.mm.module.tcp;

/**
 * The aggregate of one link: the RSRs appended to its {@link OutboundBuffer} since its last write, and when to write
 * them ({@link AggregationPolicy}). Plain fields under the link's lock; no allocation. Counts what the link wrote:
 * RSRs and the writes (physical frames) that carried them.
 */
final class Aggregation {
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
        return !adaptive || held * (age + meanGap) < policy.frameCostNanos();
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
        return age >= policy.windowNanos() || adaptive && held * age >= policy.frameCostNanos();
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
