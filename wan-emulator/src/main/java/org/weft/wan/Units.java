package org.weft.wan;

import java.util.Locale;

/** The units of the emulator's parameters, written as {@code tc} writes them: 50ms, 400mbit, 0.01%, 1000p, 2mb. */
final class Units {
    private Units() {
    }

    /** A duration in nanoseconds: a number with s, ms, us or ns. */
    static long nanos(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (String[] unit : new String[][] {{"ns", "1"}, {"us", "1e3"}, {"ms", "1e6"}, {"s", "1e9"}}) {
            if (t.endsWith(unit[0])) {
                return Math.round(number(t.substring(0, t.length() - unit[0].length()), text)
                        * Double.parseDouble(unit[1]));
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 50ms, 0.5s, 200us)");
    }

    /**
     * A rate in bits per second: a number with bit, kbit, mbit or gbit (bits), or bps, kbps, mbps or gbps (bytes per
     * second, as tc reads them); 0 means unlimited.
     */
    static long bitsPerSecond(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        String[][] units = {{"kbit", "1e3"}, {"mbit", "1e6"}, {"gbit", "1e9"}, {"bit", "1"},
            {"kbps", "8e3"}, {"mbps", "8e6"}, {"gbps", "8e9"}, {"bps", "8"}};
        for (String[] unit : units) {
            if (t.endsWith(unit[0])) {
                return Math.round(number(t.substring(0, t.length() - unit[0].length()), text)
                        * Double.parseDouble(unit[1]));
            }
        }
        if (t.equals("0")) {
            return 0;
        }
        throw new IllegalArgumentException("'" + text + "' is not a rate (e.g. 400mbit, 1gbit, 10mbps; 0 = unlimited)");
    }

    /** A probability: a percentage ({@code 0.01%}) or a fraction ({@code 0.0001}). */
    static double probability(String text) {
        String t = text.trim();
        double p = t.endsWith("%") ? number(t.substring(0, t.length() - 1), text) / 100 : number(t, text);
        if (p < 0 || p > 1) {
            throw new IllegalArgumentException("'" + text + "' is not a probability between 0 and 100%");
        }
        return p;
    }

    /** Whether a queue length is in bytes ({@code b}, {@code kb}, {@code mb}) rather than packets ({@code p}). */
    static boolean isBytes(String text) {
        return text.trim().toLowerCase(Locale.ROOT).endsWith("b");
    }

    /** A queue length: packets (a number, or with p) or bytes (with b, kb or mb: 1024-based, as tc). */
    static long queueLength(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        String[][] units = {{"kb", "1024"}, {"mb", "1048576"}, {"b", "1"}, {"p", "1"}};
        for (String[] unit : units) {
            if (t.endsWith(unit[0])) {
                return Math.round(number(t.substring(0, t.length() - unit[0].length()), text)
                        * Double.parseDouble(unit[1]));
            }
        }
        return Math.round(number(t, text));
    }

    private static double number(String digits, String text) {
        try {
            double value = Double.parseDouble(digits);
            if (value < 0 || Double.isNaN(value) || Double.isInfinite(value)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' does not start with a non-negative number");
        }
    }
}
