package org.weft.mm.module.tcp;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.weft.mm.spi.SendStatus;

/**
 * The measurement of a wide-area path, run by the first striped message this process sends over it (an auto-tuned
 * path only; a path of a job that sends no large message across is never measured, and a job on one site has no
 * such path): {@value #PINGS} PINGs for the round trip (the least), then one stream for a while and then
 * {@code max} streams for as long. The receiver times each phase from its first byte and answers with the rate it
 * saw over the second half, past slow start ({@link ProbeMeter}); the phase ends at the answer. The two rates — what
 * one TCP stream gets on this path, and what the path gives many — are what {@link StreamChoice} chooses from. A
 * step never blocks; an answer that does not come in time ends the measurement as failed (the path then uses
 * {@link StreamChoice}'s guess).
 */
final class PathProbe {
    private enum Step { PING, OPENING, PHASE, DONE }

    /** What {@link #answered} gets for a PONG (a PROBE_RESULT gives its phase, 0 or more). */
    static final long PONG = -1;
    /** Bytes of a PROBE's body before its data: phase, duration. */
    static final int HEAD = 16;
    static final int PINGS = 3;
    /**
     * Zeros that PROBE frames carry, shared by every probe of the process (never written). Smaller than a message's
     * chunk: the receiver counts whole frames, so a frame is the rate's grain, and a phase's second half on a slow
     * path (100 Mbit/s for 200 ms: 2.5 MB) must hold dozens of them for the rate to be within a few percent.
     */
    private static final MemorySegment ZEROS = Arena.global().allocate(64 << 10);
    private static final long MIN_PHASE = TimeUnit.MILLISECONDS.toNanos(400);
    private static final long MAX_PHASE = TimeUnit.SECONDS.toNanos(3);
    /** Round trips a phase lasts (between the bounds above): slow start is over well before its second half. */
    private static final int PHASE_ROUND_TRIPS = 15;
    private static final long ANSWER_WAIT = TimeUnit.SECONDS.toNanos(10);

    private final StripedTransfer transfer;
    private final WidePath path;
    private final ByteBuffer head = ByteBuffer.allocate(HEAD).order(ByteOrder.LITTLE_ENDIAN);
    private final int[] phaseStreams;
    private final long[] rates;
    private Step step = Step.PING;
    private long since = System.nanoTime();
    private int pingsSent;
    private int pongs;
    private long rtt = Long.MAX_VALUE;
    private long rate = -1;
    private long phaseLength;
    private int phase;

    PathProbe(StripedTransfer transfer, WidePath path) {
        this.transfer = transfer;
        this.path = path;
        int many = path.settings().max();
        this.phaseStreams = many > 1 ? new int[] {1, many} : new int[] {1};
        this.rates = new long[phaseStreams.length];
    }

    boolean finished() {
        return step == Step.DONE;
    }

    /** A PONG ({@code what} {@link #PONG}, value: the round trip in ns) or phase {@code what}'s rate came. */
    void answered(long what, long value) {
        if (what == PONG) {
            rtt = Math.min(rtt, value);
            pongs++;
        } else if (what == phase && step == Step.PHASE) {
            rate = value;
        }
    }

    /** Moves the measurement on; returns 1 when it sent something. */
    int step() {
        long now = System.nanoTime();
        return switch (step) {
            case PING -> ping(now);
            case OPENING -> opening(now);
            case PHASE -> feed(now);
            case DONE -> 0;
        };
    }

    /** One PING at a time: the next when the last is answered (a round trip apart, not queued behind each other). */
    private int ping(long now) {
        if (pongs >= PINGS) {
            phaseLength = Math.clamp(PHASE_ROUND_TRIPS * rtt, MIN_PHASE, MAX_PHASE);
            openStreams();
            startPhase(now);
            return 1;
        }
        if (pingsSent == pongs) {
            if (!transfer.sendControl(FrameLayout.PING_HANDLER, longBytes(now))) {
                return fail("the shared connection is closed");
            }
            pingsSent++;
            since = now;
            return 1;
        }
        return now - since > ANSWER_WAIT ? fail("no answer to a ping in "
                + TimeUnit.NANOSECONDS.toSeconds(ANSWER_WAIT) + " s") : 0;
    }

    /** The phase's streams connect (and finish a TLS handshake) before it starts. */
    private void startPhase(long now) {
        step = Step.OPENING;
        since = now;
        rate = -1;
    }

    /**
     * Waits for the phase's streams to be open, for as long as setting up that many over this round trip may take
     * on top of the usual wait ({@link SetupAllowance}: 32 TLS streams over 100 ms took longer than 10 s at load 40).
     */
    private int opening(long now) {
        int needed = phaseStreams[phase];
        boolean open = openStreams() >= needed;
        for (int i = 0; open && i < needed; i++) {
            open = transfer.stripe(i).isIdle();
        }
        if (!open) {
            long wait = ANSWER_WAIT + SetupAllowance.nanos(needed, rtt);
            return now - since > wait ? fail(needed + " streams not open in "
                    + TimeUnit.NANOSECONDS.toSeconds(wait) + " s") : 0;
        }
        step = Step.PHASE;
        since = now;
        return 1;
    }

    /** Keeps the phase's streams busy until the receiver answers. */
    private int feed(long now) {
        if (rate >= 0) {
            rates[phase] = rate;
            if (++phase < phaseStreams.length) {
                startPhase(now);
                return 1;
            }
            step = Step.DONE;
            path.measured(rtt, rates[0], rates[rates.length - 1], phaseStreams[phaseStreams.length - 1]);
            return 1;
        }
        openStreams(); // the next phase's, meanwhile
        if (now - since > ANSWER_WAIT + phaseLength + SetupAllowance.ROUND_TRIPS * rtt) {
            return fail("no probe result in time");
        }
        int sent = 0;
        for (int i = 0; i < phaseStreams[phase]; i++) {
            TcpLink stripe = transfer.stripe(i);
            head.clear();
            head.putLong(0, phase).putLong(8, phaseLength);
            if (stripe.isIdle() && transfer.sendChunk(stripe, FrameLayout.PROBE_HANDLER, head, ZEROS)
                    == SendStatus.SENT) {
                path.probeSent(ZEROS.byteSize());
                sent++;
            }
        }
        return sent > 0 ? 1 : 0;
    }

    /** Dials the next of the measurement's streams, if any is missing (one a step); returns the streams open. */
    private int openStreams() {
        return transfer.ensureStripes(phaseStreams[phaseStreams.length - 1], rtt);
    }

    private int fail(String why) {
        step = Step.DONE;
        path.measurementFailed(why);
        return 0;
    }

    static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }
}
