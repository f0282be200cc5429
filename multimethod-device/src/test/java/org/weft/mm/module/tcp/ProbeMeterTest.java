package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The receiving end of a path probe: the rate it answers is the rate the frames arrived at, not more. */
class ProbeMeterTest {
    private static final int FRAME = 64 << 10;
    private static final long GAP = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long PHASE = TimeUnit.MILLISECONDS.toNanos(400);

    private long now;
    private final ProbeMeter meter = new ProbeMeter(() -> now);

    @Test
    void framesArrivingEvenlyAreAnsweredWithTheirRateAfterThePhase() {
        byte[] answer = null;
        int frames = 0;
        while (answer == null) {
            now += GAP;
            answer = meter.probe(3, probe(0));
            frames++;
        }
        ByteBuffer result = ByteBuffer.wrap(answer).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, result.getLong());
        double expected = FRAME * 1e9 / GAP;
        assertEquals(expected, result.getLong(), expected * 0.001, "bytes per second over the second half");
        assertEquals(PHASE / GAP + 1, frames, "answered at the first frame past the phase");
    }

    @Test
    void lateFramesOfAnAnsweredPhaseAreDroppedAndTheNextPhaseStartsAfresh() {
        byte[] answer = null;
        while (answer == null) {
            now += GAP;
            answer = meter.probe(3, probe(0));
        }
        now += GAP;
        assertNull(meter.probe(3, probe(0)), "a late frame of phase 0");
        byte[] next = null;
        while (next == null) {
            now += 2 * GAP;
            next = meter.probe(3, probe(1));
        }
        ByteBuffer result = ByteBuffer.wrap(next).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, result.getLong());
        double expected = FRAME * 1e9 / (2 * GAP);
        assertEquals(expected, result.getLong(), expected * 0.001);
    }

    private static ByteBuffer probe(long phase) {
        ByteBuffer body = ByteBuffer.allocate(PathProbe.HEAD + FRAME).order(ByteOrder.LITTLE_ENDIAN);
        body.putLong(0, phase).putLong(8, PHASE);
        return body;
    }
}
