package org.weft.mm.module.tcp;

import java.util.Locale;

/**
 * Whether one link compresses its next frame, chosen from what the link measures ({@code tcp_compress=auto}):
 * compression pays only where the wire, not the sender, is the bottleneck, and only for data that compresses.
 *
 * <ul>
 *   <li><b>The wire</b>: when the path to the peer's site has been measured ({@link WidePath}, by the probe of the
 *       first striped message), the wire is the bottleneck when one stream's measured rate is below half the rate
 *       LZ4 compressed this link's samples at (the other half: the receiver's decompression and the sender's
 *       staging copy). Until then the link's own socket tells: a socket that has not taken the bytes written
 *       before (they wait in the link's queue) drains slower than this process produces, so the time spent
 *       compressing is time the sender would have waited anyway; the finding holds for the next
 *       {@value #HELD_FRAMES} frames considered, since compressed frames let the socket catch up. A socket that
 *       keeps up (a fast path, loopback) gets raw frames and costs no compression at all.</li>
 *   <li><b>The data</b>: each candidate frame's first 4 KiB are compressed as a sample ({@link Compression}); a
 *       sample that does not shrink to 85 % sends the frame raw and makes the link skip sampling for the next
 *       1, 2, 4, ... up to {@value #MOST_SKIPPED} frames (reset by a sample that compresses), so random data costs
 *       at most one sample in {@value #MOST_SKIPPED} frames once the back-off is full.</li>
 * </ul>
 * Under the link's lock; the report reads the counters without it.
 */
final class CompressionChoice {
    /** Frames skipped after a run of incompressible samples, at most. */
    static final int MOST_SKIPPED = 64;
    /** The wire is the bottleneck below this share of LZ4's rate on this link's samples (percent). */
    private static final int WIRE_SHARE_PERCENT = 50;

    /** Frames for which a socket found behind keeps counting as a bottleneck (64 frames of 256 KiB: 16 MiB). */
    static final int HELD_FRAMES = 64;

    private final WidePath path;
    /** Frames left for which the last socket found behind holds. */
    private int behindFrames;
    private int skip;
    private int backOff;
    private long sampledBytes;
    private long sampleNanos;
    private long wireKeptUp;
    private long backedOff;
    /** What told at the last frame considered, for the report: the path's measured rate (bytes/s), or 0: the socket. */
    private long lastPathRate;
    private boolean lastSocketBehind;

    /** {@code path}: this link's wide-area path, whose measurement is used once taken; null inside a site. */
    CompressionChoice(WidePath path) {
        this.path = path;
    }

    /**
     * Whether to sample (and maybe compress) the next frame: not while the back-off skips frames, nor while the
     * wire keeps up. {@code socketBehind}: bytes written before still wait for the socket.
     */
    boolean tries(boolean socketBehind) {
        if (skip > 0) {
            skip--;
            backedOff++;
            return false;
        }
        if (!wireIsBottleneck(socketBehind)) {
            wireKeptUp++;
            return false;
        }
        return true;
    }

    private boolean wireIsBottleneck(boolean socketBehind) {
        WidePath p = path;
        if (p != null && p.measurement() == WidePath.Measurement.DONE && p.oneStreamRate() > 0 && sampleNanos > 0) {
            lastPathRate = p.oneStreamRate();
            return lastPathRate * 100 < lz4Rate() * WIRE_SHARE_PERCENT;
        }
        lastPathRate = 0;
        lastSocketBehind = socketBehind;
        if (socketBehind) {
            behindFrames = HELD_FRAMES;
            return true;
        }
        // Compressed frames let the socket catch up: the finding holds for a while, or the link would compress
        // only every other stretch of a stream that the wire limits.
        if (behindFrames > 0) {
            behindFrames--;
            return true;
        }
        return false;
    }

    /** A sample of {@code bytes} took {@code nanos} to compress and {@code compresses} or not. */
    void sampled(int bytes, long nanos, boolean compresses) {
        sampledBytes += bytes;
        sampleNanos += Math.max(1, nanos);
        if (compresses) {
            backOff = 0;
        } else {
            backOff = Math.min(MOST_SKIPPED, Math.max(1, 2 * backOff));
            skip = backOff;
        }
    }

    /** Bytes per second LZ4 compressed this link's samples at. */
    private long lz4Rate() {
        return (long) (sampledBytes * 1e9 / sampleNanos);
    }

    /** Frames skipped by the back-off so far. */
    long backedOff() {
        return backedOff;
    }

    /** For the report (read without the lock: may lag). */
    String describe() {
        long pathRate = lastPathRate;
        String wire = pathRate > 0 ? String.format(Locale.ROOT, "path measured %.1f Mbit/s", pathRate * 8 / 1e6)
                : lastSocketBehind ? "socket fell behind" : "socket kept up";
        return String.format(Locale.ROOT, "auto (last: %s; %d frames raw as the wire kept up, %d by the back-off%s)",
                wire, wireKeptUp, backedOff, sampleNanos == 0 ? ""
                        : String.format(Locale.ROOT, "; lz4 %.0f Mbit/s on samples", lz4Rate() * 8 / 1e6));
    }
}
