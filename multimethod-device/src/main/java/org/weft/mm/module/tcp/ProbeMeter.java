package org.weft.mm.module.tcp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The receiving end of path probes ({@link PathProbe}), timed here, where the bytes arrive: from the first PROBE
 * byte of a sender's phase it counts for the phase's duration, then answers with the rate over the second half (the
 * streams past slow start) in a PROBE_RESULT. Bytes of a phase already answered (still in flight when the sender
 * heard the answer) are dropped. Rare traffic, so one lock.
 */
final class ProbeMeter {
    /** One sender's probe phase: when it began, its duration, the bytes and time at its middle, the bytes so far. */
    private static final class Phase {
        long number = -1;
        long start;
        long duration;
        long bytes;
        long bytesAtMiddle = -1;
        long middle;
        boolean answered;
    }

    private final Map<Integer, Phase> phases = new HashMap<>();
    private final LongSupplier clock;

    ProbeMeter() {
        this(System::nanoTime);
    }

    /** A meter reading {@code clock} (ns) for the frames' arrival times: tests give it a clock of their own. */
    ProbeMeter(LongSupplier clock) {
        this.clock = clock;
    }

    /**
     * A PROBE from {@code source}: u64 phase, u64 duration (ns), then bytes. Returns the PROBE_RESULT body to send
     * (u64 phase, u64 bytes per second) once the phase has lasted its duration, else null.
     */
    synchronized byte[] probe(int source, ByteBuffer body) {
        long now = clock.getAsLong();
        long number = body.getLong(body.position());
        long duration = body.getLong(body.position() + 8);
        Phase p = phases.computeIfAbsent(source, s -> new Phase());
        if (number < p.number || number == p.number && p.answered) {
            return null; // late bytes of a phase already answered
        }
        if (number > p.number) {
            p.number = number;
            p.start = now;
            p.duration = duration;
            p.bytes = 0;
            p.bytesAtMiddle = -1;
            p.answered = false;
        }
        p.bytes += body.remaining() - PathProbe.HEAD;
        if (p.bytesAtMiddle < 0 && now - p.start >= p.duration / 2) {
            // This frame's bytes arrived before now: counting them after the middle would overstate the rate.
            p.bytesAtMiddle = p.bytes;
            p.middle = now;
            return null;
        }
        if (now - p.start < p.duration || p.bytesAtMiddle < 0 || now - p.middle <= 0) {
            return null;
        }
        p.answered = true;
        long rate = (long) ((p.bytes - p.bytesAtMiddle) * 1e9 / (now - p.middle));
        return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(number).putLong(rate).array();
    }
}
