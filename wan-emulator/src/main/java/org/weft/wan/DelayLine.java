package org.weft.wan;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * One direction of an emulated link: packets are dropped at random with the loss probability, then wait in a
 * tail-drop queue while the link serialises the ones before them at its rate, then travel for the one-way delay,
 * and leave in the order they came. Each packet gets, on arrival, the time its last bit leaves the queue
 * ({@code departure}: the later of now and the previous packet's departure, plus its own serialisation time); it
 * is delivered at {@code departure + delay}. The queue holds the packets whose departure is still to come.
 *
 * <p>Packets are copied into one ring of native memory, each a record (8-byte aligned), so a steady flow
 * allocates nothing:
 * <pre>
 *   0        4        8                16
 *   +--------+--------+----------------+---------------------+
 *   | length | unused | departure (ns) | packet (length B)   |   length = -1: wrap to the ring's start
 *   +--------+--------+----------------+---------------------+
 * </pre>
 * Three cursors move forward through it: {@code head} (next to deliver), {@code serialised} (next to leave the
 * queue) and {@code tail} (next free byte). Not thread-safe: one forwarding thread owns it.
 */
final class DelayLine {
    private static final int HEADER = 16;
    private static final int WRAP = -1;
    /** Room for an MTU-sized packet and its header, to size a ring for a queue given in packets. */
    private static final long PACKET_RECORD = 1536 + HEADER;
    private static final long MIN_RING = 4L << 20;
    private static final long MAX_RING = 256L << 20;
    /** The ring without a rate: what the delay holds at the emulator's ceiling (docs/performance.md), with room. */
    private static final long UNLIMITED_RING = 32L << 20;

    private final String name;
    private final LinkSpec spec;
    private final MemorySegment ring;
    private final long capacity;
    private final SplittableRandom random;
    private long head;
    private long serialised;
    private long tail;
    private long lastDeparture;
    private long queuedPackets;
    private long queuedBytes;
    private final Counters counters = new Counters();

    DelayLine(String name, LinkSpec spec, long seed) {
        this.name = name;
        this.spec = spec;
        this.capacity = ringBytes(spec);
        this.ring = Libc.callocForever(capacity);
        this.random = new SplittableRandom(seed);
    }

    /**
     * The ring's size: twice what the queue and the wire can hold (a record of a small packet costs up to twice its
     * bytes), between 4 and 256 MiB, or 32 MiB without a rate; when it is full anyway (no rate and a flood),
     * packets are dropped as {@code noRoom}.
     */
    private static long ringBytes(LinkSpec spec) {
        if (spec.bitsPerSecond() == 0) {
            return UNLIMITED_RING;
        }
        long queue = spec.queueInBytes() ? spec.queueLimit() : spec.queueLimit() * PACKET_RECORD;
        long wanted = 2 * (Math.min(queue, MAX_RING) + spec.bytesInFlight());
        return Math.clamp(wanted, MIN_RING, MAX_RING) & ~7L;
    }

    String name() {
        return name;
    }

    LinkSpec spec() {
        return spec;
    }

    Counters counters() {
        return counters;
    }

    /** Takes the packet of {@code length} bytes at the start of {@code packet}, arrived at {@code now}. */
    void offer(MemorySegment packet, int length, long now) {
        counters.received++;
        counters.receivedBytes += length;
        if (spec.loss() > 0 && random.nextDouble() < spec.loss()) {
            counters.lost++;
            return;
        }
        serialise(now);
        if (spec.queueInBytes() ? queuedBytes + length > spec.queueLimit() : queuedPackets >= spec.queueLimit()) {
            counters.queueDrops++;
            return;
        }
        long need = align(HEADER + length);
        long position = tail % capacity;
        long skip = need > capacity - position ? capacity - position : 0;
        if (tail + skip + need - head > capacity) {
            counters.noRoom++;
            return;
        }
        if (skip > 0) {
            ring.set(ValueLayout.JAVA_INT, position, WRAP);
            tail += skip;
            position = 0;
        }
        long departure = Math.max(now, lastDeparture) + spec.serialisationNanos(length);
        lastDeparture = departure;
        ring.set(ValueLayout.JAVA_INT, position, length);
        ring.set(ValueLayout.JAVA_LONG, position + 8, departure);
        MemorySegment.copy(packet, 0, ring, position + HEADER, length);
        tail += need;
        queuedPackets++;
        queuedBytes += length;
        counters.maxQueuedBytes = Math.max(counters.maxQueuedBytes, queuedBytes);
    }

    /** Writes to {@code out} every packet due by {@code now}, in order: how many. */
    int deliverDue(long now, PacketSink out) {
        serialise(now);
        int delivered = 0;
        while (head < tail) {
            long position = head % capacity;
            int length = ring.get(ValueLayout.JAVA_INT, position);
            if (length == WRAP) {
                head += capacity - position;
                continue;
            }
            long due = ring.get(ValueLayout.JAVA_LONG, position + 8) + spec.delayNanos();
            if (due > now) {
                break;
            }
            counters.latenessNanos += now - due;
            counters.maxLatenessNanos = Math.max(counters.maxLatenessNanos, now - due);
            if (out.write(ring.address() + position + HEADER, length)) {
                counters.delivered++;
                counters.deliveredBytes += length;
            } else {
                counters.writeFailures++;
            }
            head += align(HEADER + length);
            delivered++;
        }
        return delivered;
    }

    /** When the next packet is due (System.nanoTime), or {@link Long#MAX_VALUE} when none is held. */
    long nextDue() {
        if (head == tail) {
            return Long.MAX_VALUE;
        }
        long position = skipWrap(head);
        return ring.get(ValueLayout.JAVA_LONG, position + 8) + spec.delayNanos();
    }

    /** Moves the packets whose last bit has left by {@code now} out of the queue (they are on the wire). */
    private void serialise(long now) {
        while (serialised < tail) {
            long position = serialised % capacity;
            int length = ring.get(ValueLayout.JAVA_INT, position);
            if (length == WRAP) {
                serialised += capacity - position;
                continue;
            }
            if (ring.get(ValueLayout.JAVA_LONG, position + 8) > now) {
                return;
            }
            serialised += align(HEADER + length);
            queuedPackets--;
            queuedBytes -= length;
        }
    }

    /** The ring offset of the record at {@code cursor}, past a wrap marker (then 0). */
    private long skipWrap(long cursor) {
        long position = cursor % capacity;
        return ring.get(ValueLayout.JAVA_INT, position) == WRAP ? 0 : position;
    }

    private static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }

    @Override
    public String toString() {
        return name + " (" + spec + "): " + counters;
    }

    /** What went through one direction, for the statistics lines. */
    static final class Counters {
        long received;
        long receivedBytes;
        long delivered;
        long deliveredBytes;
        long lost;
        long queueDrops;
        long noRoom;
        long writeFailures;
        long maxQueuedBytes;
        /** How much later than due the packets left (the emulator's own error), summed, and the worst. */
        long latenessNanos;
        long maxLatenessNanos;

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "received %d packets (%d bytes), delivered %d (%d bytes), lost at random "
                    + "%d, dropped at a full queue %d, dropped for want of room %d, refused by the kernel %d, "
                    + "longest queue %d bytes, late by %.1f us on average and %.1f us at most", received,
                    receivedBytes, delivered, deliveredBytes, lost, queueDrops, noRoom, writeFailures, maxQueuedBytes,
                    latenessNanos / 1e3 / Math.max(1, delivered + writeFailures), maxLatenessNanos / 1e3);
        }
    }
}
