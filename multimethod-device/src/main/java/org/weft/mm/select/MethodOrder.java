package org.weft.mm.select;

import org.weft.adi.param.Parameter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The order in which methods are tried, fastest first, and which are left out. The default is the papers'
 * self &gt; shm &gt; nativempi &gt; tcp &gt; relay; the {@code methods} parameter ({@code weftrun --methods}) replaces it,
 * e.g. {@code tcp} forces TCP everywhere and {@code self,tcp} leaves shared memory out.
 */
public final class MethodOrder {
    public static final List<String> DEFAULT = List.of("self", "nativempi", "shm", "tcp", "relay");

    public static final Parameter<String> METHODS = Parameter.string("methods", String.join(",", DEFAULT),
            "comma-separated communication methods to use, in order of preference");

    private MethodOrder() {
    }

    /** Parses a {@code methods} value into an ordered list of method names without duplicates. */
    public static List<String> parse(String text) {
        List<String> order = new ArrayList<>();
        for (String name : text.split(",")) {
            String method = name.trim().toLowerCase(Locale.ROOT);
            if (!method.isEmpty() && !order.contains(method)) {
                order.add(method);
            }
        }
        if (order.isEmpty()) {
            throw new IllegalArgumentException("methods: no method named in '" + text + "'");
        }
        return order;
    }

    /** The names in {@code order} that are not in {@code known}, for a clear error. */
    public static List<String> unknown(List<String> order, List<String> known) {
        return order.stream().filter(m -> !known.contains(m)).toList();
    }
}
