package org.weft.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The link model, on a clock the test sets: delay, serialisation at the rate, tail drop, random loss, order. */
class DelayLineTest {
    private static final long MS = 1_000_000L;
    private final MemorySegment packet = Arena.ofAuto().allocate(2048);
    private final List<Integer> delivered = new ArrayList<>();
    private final PacketSink sink = (address, length) -> {
        delivered.add((int) MemorySegment.ofAddress(address).reinterpret(length).get(ValueLayout.JAVA_BYTE, 0));
        return true;
    };

    /** 8 Mbit/s is a byte a microsecond: a 1000-byte packet takes 1 ms on the wire. */
    @Test
    void packetsLeaveOneSerialisationApartAfterTheDelayAndInOrder() {
        DelayLine line = new DelayLine("a:b", LinkSpec.parse("delay=10ms,rate=8mbit,queue=10p"), 1);
        for (int i = 0; i < 3; i++) {
            offer(line, i, 1000, 0);
        }
        assertEquals(11 * MS, line.nextDue());
        assertEquals(0, line.deliverDue(11 * MS - 1, sink));
        assertEquals(1, line.deliverDue(11 * MS, sink));
        assertEquals(0, line.deliverDue(12 * MS - 1, sink));
        assertEquals(2, line.deliverDue(13 * MS, sink));
        assertEquals(List.of(0, 1, 2), delivered);
        assertEquals(Long.MAX_VALUE, line.nextDue());
    }

    @Test
    void anIdleLinkSerialisesFromTheArrivalNotFromThePast() {
        DelayLine line = new DelayLine("a:b", LinkSpec.parse("delay=10ms,rate=8mbit"), 1);
        offer(line, 0, 1000, 0);
        offer(line, 1, 1000, 50 * MS);
        line.deliverDue(11 * MS, sink);
        assertEquals(61 * MS, line.nextDue());
    }

    @Test
    void aFullQueueDropsAtTheTailAndEmptiesAsTheLinkSerialises() {
        DelayLine line = new DelayLine("a:b", LinkSpec.parse("delay=10ms,rate=8mbit,queue=2p"), 1);
        for (int i = 0; i < 4; i++) {
            offer(line, i, 1000, 0);
        }
        assertEquals(2, line.counters().queueDrops);
        offer(line, 4, 1000, 1 * MS); // the first has left the queue: room for one
        offer(line, 5, 1000, 1 * MS);
        assertEquals(3, line.counters().queueDrops);
        line.deliverDue(100 * MS, sink);
        assertEquals(List.of(0, 1, 4), delivered);
    }

    @Test
    void aQueueInBytesCountsBytes() {
        DelayLine line = new DelayLine("a:b", LinkSpec.parse("rate=8mbit,queue=2500b"), 1);
        offer(line, 0, 1000, 0);
        offer(line, 1, 1000, 0);
        offer(line, 2, 1000, 0);
        offer(line, 3, 400, 0);
        assertEquals(1, line.counters().queueDrops);
        line.deliverDue(100 * MS, sink);
        assertEquals(List.of(0, 1, 3), delivered);
    }

    @Test
    void lossDropsAboutItsShareAtRandom() {
        DelayLine line = new DelayLine("a:b", LinkSpec.parse("loss=10%"), 42);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            offer(line, i, 100, 0);
        }
        long lost = line.counters().lost;
        // binomial: mean 2000, standard deviation 42; 5 deviations either way
        assertTrue(Math.abs(lost - n / 10) < 5 * 42, "lost " + lost + " of " + n);
        assertEquals(n - lost, line.deliverDue(0, sink));
    }

    @Test
    void theRingWrapsAroundWithoutLosingOrder() {
        DelayLine line = new DelayLine("a:b", LinkSpec.parse("delay=1ms"), 1);
        long now = 0;
        for (int round = 0; round < 20_000; round++) {
            offer(line, round & 0x7f, 1500, now);
            now += 100_000;
            line.deliverDue(now, sink);
        }
        line.deliverDue(now + 10 * MS, sink);
        assertEquals(20_000, delivered.size());
        for (int i = 0; i < delivered.size(); i++) {
            assertEquals(i & 0x7f, delivered.get(i));
        }
    }

    @Test
    void specsParseTheirUnitsAndLaterKeysWin() {
        LinkSpec spec = LinkSpec.parse("rtt=100ms,rate=400mbit,loss=0.01%,rate=1gbit");
        assertEquals(50 * MS, spec.delayNanos());
        assertEquals(1_000_000_000L, spec.bitsPerSecond());
        assertEquals(0.0001, spec.loss(), 1e-12);
        assertTrue(spec.queueInBytes(), "a rate without a queue gets one bandwidth-delay product");
        assertEquals(12_500_000, spec.queueLimit());
        assertEquals(2 * 1024 * 1024, LinkSpec.parse("queue=2mb").queueLimit());
        assertEquals(80_000_000, LinkSpec.parse("rate=10mbps").bitsPerSecond());
    }

    private void offer(DelayLine line, int mark, int length, long now) {
        packet.set(ValueLayout.JAVA_BYTE, 0, (byte) mark);
        line.offer(packet, length, now);
    }
}
