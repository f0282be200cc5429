package org.weft.mm.module.tcp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;

/**
 * The receiving end of path probes ({@link PathProbe}): counts the PROBE bytes each sender's stripes bring and, at
 * its PROBE_END, answers with the rate over the second half of the probe, when the streams are past slow start.
 * Rare traffic, so one lock.
 */
final class ProbeMeter {
    /** One sender's probe phase: when it began, the bytes and time at its middle, the bytes and time so far. */
    private static final class Phase {
        long start;
        long halfway;
        long duration;
        long bytes;
        long bytesAtMiddle = -1;
        long middle;
        long last;
    }

    private final Map<Integer, Phase> phases = new HashMap<>();

    /** A PROBE from {@code source}: u64 duration (ns), then bytes. */
    synchronized void probe(int source, ByteBuffer body) {
        long now = System.nanoTime();
        long duration = body.getLong(body.position());
        Phase p = phases.computeIfAbsent(source, s -> new Phase());
        if (p.bytes == 0) {
            p.start = now;
            p.duration = duration;
            p.halfway = now + duration / 2;
        }
        if (p.bytesAtMiddle < 0 && now - p.halfway >= 0) {
            p.bytesAtMiddle = p.bytes;
            p.middle = now;
        }
        p.bytes += body.remaining() - 8;
        p.last = now;
    }

    /** PROBE_END from {@code source}: the PROBE_RESULT body to answer, bytes per second (0: too little came). */
    synchronized byte[] end(int source) {
        Phase p = phases.remove(source);
        long rate = 0;
        if (p != null && p.bytesAtMiddle >= 0 && p.last - p.middle > 0) {
            rate = (long) ((p.bytes - p.bytesAtMiddle) * 1e9 / (p.last - p.middle));
        } else if (p != null && p.last - p.start > 0) {
            rate = (long) (p.bytes * 1e9 / (p.last - p.start));
        }
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(rate).array();
    }
}
