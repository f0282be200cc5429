package org.weft.mm.module.tcp;

import java.util.Locale;
import org.weft.adi.param.Parameter;

/**
 * What is declared for one wide-area path (a pair of sites): how many TCP streams a large message is striped over
 * ({@link #AUTO}: chosen per message size from the path's measured round trip and one-stream throughput, at most
 * {@code max}), the piece of a message one stream takes at a time ({@code chunk}), the socket buffers of a stream
 * ({@code window}, 0: the OS's autotuning), a pacing rate for the path's streams together in bytes per second
 * ({@code pacing}, 0: none) and the smallest message striped at all ({@code min}; smaller ones go, as between
 * any two ranks, on the connection the pair shares). Text form: {@code streams=16,window=8m,pacing=300mbit}.
 */
record PathSettings(int streams, int max, int chunk, int window, long pacing, long min) {
    /** {@link #streams} when the path chooses by itself. */
    static final int AUTO = 0;
    /**
     * What every path has unless told otherwise: auto, at most 32 streams (each is a connection per pair of ranks,
     * and a TLS one across sites; MPWide went to 64 on a 10 Gbit/s light path), a chunk of a quarter MiB.
     */
    static final PathSettings DEFAULT = new PathSettings(AUTO, 32, 256 << 10, 0, 0, 1 << 20);
    /** More than this would be a thread-and-socket storm for no gain (MPWide worked up to 128). */
    static final int MOST_STREAMS = 128;

    PathSettings {
        if (streams < 0 || streams > MOST_STREAMS || max < 1 || max > MOST_STREAMS) {
            throw new IllegalArgumentException("streams and max must lie in [1, " + MOST_STREAMS + "] (streams: or"
                    + " auto), not " + (streams == AUTO ? "auto" : streams) + " and " + max);
        }
        if (chunk < 4096 || chunk > (64 << 20) || window < 0 || pacing < 0 || min < 0) {
            throw new IllegalArgumentException("chunk must lie in [4k, 64m], window, pacing and min be >= 0");
        }
    }

    boolean isAuto() {
        return streams == AUTO;
    }

    /** Streams this path may ever use at once. */
    int mostStreams() {
        return isAuto() ? max : streams;
    }

    /** These settings with {@code spec} ({@code key=value,...}) applied over them. */
    PathSettings with(String spec) {
        PathSettings s = this;
        for (String item : spec.split(",")) {
            String entry = item.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("path setting '" + entry + "' is not key=value");
            }
            String key = entry.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = entry.substring(eq + 1).strip();
            try {
                s = s.with(key, value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("path setting " + key + ": not a number: " + value);
            }
        }
        return s;
    }

    private PathSettings with(String key, String value) {
        return switch (key) {
            case "streams" -> new PathSettings(value.equalsIgnoreCase("auto") ? AUTO : Integer.parseInt(value), max,
                    chunk, window, pacing, min);
            case "max" -> new PathSettings(streams, Integer.parseInt(value), chunk, window, pacing, min);
            case "chunk" -> new PathSettings(streams, max, intBytes(key, size(value)), window, pacing, min);
            case "window" -> new PathSettings(streams, max, chunk, intBytes(key, size(value)), pacing, min);
            case "pacing" -> new PathSettings(streams, max, chunk, window, rate(value), min);
            case "min" -> new PathSettings(streams, max, chunk, window, pacing, size(value));
            default -> throw new IllegalArgumentException("unknown path setting '" + key
                    + "' (streams, max, chunk, window, pacing, min)");
        };
    }

    private static long size(String text) {
        return Parameter.bytes("size", 0, "").parser().apply(text);
    }

    private static int intBytes(String key, long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("path setting " + key + ": " + bytes + " bytes is too large");
        }
        return (int) bytes;
    }

    /** A rate: {@code 300mbit}, {@code 1gbit} (bits per second) or a size per second ({@code 40m}). */
    static long rate(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (!t.endsWith("bit")) {
            return size(t);
        }
        String number = t.substring(0, t.length() - 3);
        long unit = switch (number.isEmpty() ? ' ' : number.charAt(number.length() - 1)) {
            case 'k' -> 1_000L;
            case 'm' -> 1_000_000L;
            case 'g' -> 1_000_000_000L;
            default -> 1L;
        };
        double value = Double.parseDouble(unit == 1 ? number : number.substring(0, number.length() - 1));
        return (long) (value * unit / 8);
    }

    @Override
    public String toString() {
        return "streams=" + (isAuto() ? "auto" : streams) + ",max=" + max + ",chunk=" + chunk + ",window=" + window
                + ",pacing=" + pacing + ",min=" + min;
    }
}
