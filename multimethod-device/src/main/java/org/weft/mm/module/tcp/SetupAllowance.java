package org.weft.mm.module.tcp;

import java.util.concurrent.TimeUnit;

/**
 * How much longer than an ordinary connection the setting-up of {@code streams} new connections over a wide-area
 * path of round trip {@code rtt} may take: the dialler's wait for its stripes (the path probe's) and the acceptor's
 * patience with their HELLOs both grow by it, so that a long path and a burst of TLS streams on a loaded machine are
 * not taken for a dead path or for strangers.
 *
 * <p>Why these terms: a stream's connect, HELLO and TLS handshake take about {@value #ROUND_TRIPS} round trips in
 * all (connect 1, HELLO with the client's first flight 0.5, the rest of TLS 1.5, one more for a lost segment), and the
 * streams of a burst overlap on the network but not on the CPU: each costs both ends an engine, its buffers and a
 * handshake's public-key work, {@value #STREAM_SETUP_MILLIS} ms apiece at most on this 2-core machine under a load of
 * 30-45 (45 ms of wall time per TLS stream made by the dialler alone at load 33; both ends do as much). With 32 TLS
 * streams over 100 ms the old fixed 5 s HELLO limit was missed at load 30-45.
 */
final class SetupAllowance {
    static final int ROUND_TRIPS = 4;
    static final long STREAM_SETUP_MILLIS = 150;

    private SetupAllowance() {
    }

    /** The allowance in ns for {@code streams} streams over a path of round trip {@code rttNanos} (0: unknown). */
    static long nanos(int streams, long rttNanos) {
        return ROUND_TRIPS * Math.max(0, rttNanos)
                + Math.max(0, streams) * TimeUnit.MILLISECONDS.toNanos(STREAM_SETUP_MILLIS);
    }
}
