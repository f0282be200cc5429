package org.weft.adi.param;

import java.util.function.Function;

/**
 * One declared tunable: its name (e.g. {@code tcp_eager_limit}), default, unit and one line of documentation.
 * Declare each parameter once, as a constant beside the code it tunes, and read it through {@link Parameters}.
 */
public record Parameter<T>(String name, T defaultValue, String unit, String doc, Function<String, T> parser) {

    public static Parameter<Long> bytes(String name, long defaultValue, String doc) {
        return new Parameter<>(name, defaultValue, "bytes", doc, Parameter::parseSize);
    }

    public static Parameter<Integer> integer(String name, int defaultValue, String unit, String doc) {
        return new Parameter<>(name, defaultValue, unit, doc, Integer::parseInt);
    }

    public static Parameter<String> string(String name, String defaultValue, String doc) {
        return new Parameter<>(name, defaultValue, "", doc, Function.identity());
    }

    /** The environment variable that sets this parameter: {@code WEFT_} and the name in upper case. */
    public String environmentName() {
        return "WEFT_" + name.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
    }

    /** Parses sizes such as {@code 65536}, {@code 64k}, {@code 4m}, {@code 1g}. */
    static long parseSize(String text) {
        String s = text.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = switch (s.isEmpty() ? ' ' : s.charAt(s.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1L;
        };
        return Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
    }
}
