package org.weft.wan;

import java.util.Locale;

/**
 * How one direction of an emulated link behaves: its one-way delay, its rate (0: unlimited), its queue (in packets
 * or bytes; packets beyond it are dropped at the tail) and its random loss probability.
 *
 * @param delayNanos     one-way propagation delay
 * @param bitsPerSecond  serialisation rate, 0 for none (packets then leave as they come, after the delay)
 * @param queueLimit     the queue's length, in packets or bytes
 * @param queueInBytes   whether {@code queueLimit} counts bytes (else packets)
 * @param loss           probability that a packet is dropped at random, before the queue
 */
record LinkSpec(long delayNanos, long bitsPerSecond, long queueLimit, boolean queueInBytes, double loss) {
    /** The queue when none is given: one bandwidth-delay product of the round trip (2 × delay), at least 64 KiB. */
    static final long MIN_DEFAULT_QUEUE_BYTES = 64 * 1024;
    /** Without a rate no queue builds; this bounds the packets held for the delay instead. */
    static final long UNLIMITED_QUEUE_PACKETS = 1_000_000;

    LinkSpec {
        if (delayNanos < 0 || bitsPerSecond < 0 || queueLimit <= 0 || loss < 0 || loss > 1) {
            throw new IllegalArgumentException("bad link: delay " + delayNanos + " ns, rate " + bitsPerSecond
                    + " bit/s, queue " + queueLimit + ", loss " + loss);
        }
    }

    /**
     * The spec {@code text} gives: {@code delay=50ms,rate=400mbit,queue=1000p,loss=0.01%} ({@code rtt=100ms} is
     * {@code delay=50ms}), each key optional
     * (no delay, no rate limit, no loss) and the last one of a key winning, so that a default and a per-direction
     * spec can be joined with a comma. A rate without a queue gets the default queue.
     */
    static LinkSpec parse(String text) {
        long delay = 0;
        long rate = 0;
        String queue = null;
        double p = 0;
        for (String setting : text.split(",")) {
            if (setting.isBlank()) {
                continue;
            }
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + setting
                        + "' is not key=value (delay, rtt, rate, queue, loss)");
            }
            String value = setting.substring(eq + 1);
            switch (setting.substring(0, eq).trim().toLowerCase(Locale.ROOT)) {
                case "delay" -> delay = Units.nanos(value);
                case "rtt" -> delay = Units.nanos(value) / 2;
                case "rate" -> rate = Units.bitsPerSecond(value);
                case "queue" -> queue = value;
                case "loss" -> p = Units.probability(value);
                default -> throw new IllegalArgumentException("unknown link setting '" + setting
                        + "' (delay, rtt, rate, queue, loss)");
            }
        }
        if (queue != null) {
            return new LinkSpec(delay, rate, Units.queueLength(queue), Units.isBytes(queue), p);
        }
        return rate > 0 ? new LinkSpec(delay, rate, defaultQueueBytes(delay, rate), true, p)
                : new LinkSpec(delay, rate, UNLIMITED_QUEUE_PACKETS, false, p);
    }

    /** Nanoseconds to put {@code bytes} on the wire at this rate (0 without a rate). */
    long serialisationNanos(int bytes) {
        return bitsPerSecond == 0 ? 0 : bytes * 8L * 1_000_000_000L / bitsPerSecond;
    }

    /** The bytes in flight on the wire for the delay, at the rate (the delay line's share of memory). */
    long bytesInFlight() {
        return bitsPerSecond == 0 ? 0 : bitsPerSecond / 8 * delayNanos / 1_000_000_000L;
    }

    private static long defaultQueueBytes(long delay, long rate) {
        return Math.max(MIN_DEFAULT_QUEUE_BYTES, rate / 8 * 2 * delay / 1_000_000_000L);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "delay %.3f ms, rate %s, queue %d%s, loss %s%%", delayNanos / 1e6,
                bitsPerSecond == 0 ? "unlimited" : bitsPerSecond / 1e6 + " Mbit/s", queueLimit,
                queueInBytes ? " bytes" : " packets", loss * 100);
    }
}
