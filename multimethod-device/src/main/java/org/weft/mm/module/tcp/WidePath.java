package org.weft.mm.module.tcp;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What this process knows of its wide-area path to one other site: the declared {@link PathSettings}, the round
 * trip and throughputs measured on it, the stream count chosen per size class, and the bytes it carried striped.
 * Shared by this process's links to the ranks of that site; read by the report.
 *
 * <p>Size classes are powers of two: class {@code k} holds messages of {@code [2^k, 2^(k+1))} bytes.
 */
final class WidePath {
    enum Measurement { NONE, PROBING, DONE, FAILED }

    static final int CLASSES = 64;

    private final String name;
    private final PathSettings settings;
    private volatile Measurement measurement = Measurement.NONE;
    private volatile long rttNanos;
    /** One stream's throughput and many streams' (the probe's second phase), bytes per second. */
    private volatile long oneStreamRate;
    private volatile long manyStreamRate;
    private volatile int manyStreams;
    private volatile String failure;
    /** Per size class: the streams used last (0: none yet), messages and bytes carried. */
    private final AtomicLongArray chosen = new AtomicLongArray(CLASSES);
    private final AtomicLongArray messages = new AtomicLongArray(CLASSES);
    private final AtomicLongArray bytes = new AtomicLongArray(CLASSES);
    private final AtomicLong probeBytes = new AtomicLong();

    WidePath(String name, PathSettings settings) {
        this.name = name;
        this.settings = settings;
    }

    String name() {
        return name;
    }

    PathSettings settings() {
        return settings;
    }

    /** The round trip measured (ns), 0 before a measurement. */
    long roundTrip() {
        return rttNanos;
    }

    /** One stream's measured throughput, bytes per second (0 until measured). */
    long oneStreamRate() {
        return oneStreamRate;
    }

    Measurement measurement() {
        return measurement;
    }

    /** Whether a striped message must wait for the path's measurement (auto, and not measured yet). */
    boolean awaitsMeasurement() {
        Measurement m = measurement;
        return settings.isAuto() && (m == Measurement.NONE || m == Measurement.PROBING);
    }

    /** Takes the measurement on (one caller wins). */
    synchronized boolean startMeasuring() {
        if (measurement != Measurement.NONE) {
            return false;
        }
        measurement = Measurement.PROBING;
        return true;
    }

    void measured(long rtt, long oneStream, long many, int streams) {
        rttNanos = rtt;
        oneStreamRate = oneStream;
        manyStreamRate = many;
        manyStreams = streams;
        measurement = Measurement.DONE;
    }

    void measurementFailed(String why) {
        failure = why;
        measurement = Measurement.FAILED;
    }

    void probeSent(long n) {
        probeBytes.addAndGet(n);
    }

    /** The streams for a message of {@code size} bytes: declared, or {@link StreamChoice chosen}. */
    int streamsFor(long size) {
        int n = settings.isAuto()
                ? StreamChoice.streams(size, settings.chunk(), oneStreamRate, manyStreamRate, settings.max(),
                        measurement == Measurement.DONE)
                : settings.streams();
        return Math.max(1, Math.min(n, settings.mostStreams()));
    }

    /**
     * Counts a striped message of {@code size} bytes sent over {@code streams} streams; {@code chosenHere}: the path
     * chose them (not the sender's communicator), so the report shows them as the choice for the size class.
     */
    void carried(long size, int streams, boolean chosenHere) {
        int k = sizeClass(size);
        if (chosenHere || chosen.get(k) == 0) {
            chosen.set(k, streams);
        }
        messages.incrementAndGet(k);
        bytes.addAndGet(k, size);
    }

    static int sizeClass(long size) {
        return 63 - Long.numberOfLeadingZeros(Math.max(1, size));
    }

    /** One line for the report, and one per size class striped (lines end with new lines). */
    String describe() {
        StringBuilder out = new StringBuilder();
        out.append("path ").append(name).append(": ").append(settings.isAuto() ? "auto" : settings.streams()
                + " streams");
        switch (measurement) {
            case DONE -> out.append(String.format(Locale.ROOT,
                    ", round trip %.1f ms, one stream %.1f Mbit/s, %d streams %.1f Mbit/s", rttNanos / 1e6,
                    oneStreamRate * 8 / 1e6, manyStreams, manyStreamRate * 8 / 1e6));
            case FAILED -> out.append(", not measured (").append(failure).append(')');
            case PROBING -> out.append(", being measured");
            case NONE -> out.append(settings.isAuto() ? ", not measured (no striped message)" : "");
        }
        out.append(", probe bytes ").append(probeBytes.get());
        for (int k = 0; k < CLASSES; k++) {
            long m = messages.get(k);
            if (m > 0) {
                out.append(String.format(Locale.ROOT, "%npath %s %s-%s: %d streams, %d messages, %d bytes",
                        name, size(1L << k), size(k == 62 ? Long.MAX_VALUE : (1L << (k + 1))), chosen.get(k), m,
                        bytes.get(k)));
            }
        }
        return out.toString();
    }

    private static String size(long n) {
        if (n >= 1L << 30) {
            return (n >> 30) + "GiB";
        }
        return n >= 1L << 20 ? (n >> 20) + "MiB" : n >= 1L << 10 ? (n >> 10) + "KiB" : n + "B";
    }
}
