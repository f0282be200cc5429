package org.weft.mm.module.tcp;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * A parameter's value per path (a pair of sites), as {@code tcp_aggregate} and {@code tcp_compress} take it: one
 * value for every path ({@code adaptive}), or a comma-separated list of {@code SCOPE:VALUE} where SCOPE is
 * {@code same-site}, {@code cross-site}, {@code all} or a pair of sites {@code A-B} (either order). The most specific
 * scope that covers a path decides: a pair, then same-site or cross-site, then all. In a job without sites every
 * path is same-site.
 */
final class PathScoped<T> {
    static final String SAME_SITE = "same-site";
    static final String CROSS_SITE = "cross-site";
    static final String ALL = "all";

    private final String parameter;
    private final Map<String, T> byScope;

    private PathScoped(String parameter, Map<String, T> byScope) {
        this.parameter = parameter;
        this.byScope = byScope;
    }

    /**
     * Parses {@code text} for parameter {@code parameter}; {@code values} parses one value and throws
     * {@link IllegalArgumentException} for a bad one. A path no scope covers gets {@code fallback}.
     */
    static <T> PathScoped<T> parse(String parameter, String text, Function<String, T> values, T fallback) {
        Map<String, T> byScope = new LinkedHashMap<>();
        byScope.put(ALL, fallback);
        for (String item : text.split(",")) {
            String entry = item.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int colon = entry.lastIndexOf(':');
            String scope = colon < 0 ? ALL : entry.substring(0, colon).strip();
            String value = entry.substring(colon + 1).strip();
            if (scope.isEmpty() || scope.indexOf('-') == 0 || scope.endsWith("-")) {
                throw new IllegalArgumentException("parameter " + parameter + ": bad scope in '" + entry
                        + "' (same-site, cross-site, all or SITE-SITE)");
            }
            try {
                byScope.put(canonical(scope), values.apply(value));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("parameter " + parameter + ": " + e.getMessage(), e);
            }
        }
        return new PathScoped<>(parameter, byScope);
    }

    /** The value for the path between a rank of site {@code here} and one of site {@code there}. */
    T forPath(String here, String there) {
        T pair = byScope.get(pairScope(here, there));
        if (pair != null) {
            return pair;
        }
        T side = byScope.get(here.equals(there) ? SAME_SITE : CROSS_SITE);
        return side != null ? side : byScope.get(ALL);
    }

    /** Which scope {@link #forPath} took its value from, for the report. */
    String scopeOf(String here, String there) {
        String pair = pairScope(here, there);
        if (byScope.containsKey(pair)) {
            return pair;
        }
        String side = here.equals(there) ? SAME_SITE : CROSS_SITE;
        return byScope.containsKey(side) ? side : ALL;
    }

    String parameter() {
        return parameter;
    }

    private static String canonical(String scope) {
        if (scope.equals(SAME_SITE) || scope.equals(CROSS_SITE) || scope.equals(ALL)) {
            return scope;
        }
        int dash = scope.indexOf('-');
        if (dash < 0) {
            throw new IllegalArgumentException("unknown scope '" + scope + "' (same-site, cross-site, all or"
                    + " SITE-SITE)");
        }
        return pairScope(scope.substring(0, dash), scope.substring(dash + 1));
    }

    /** The pair's key, the same whichever end asks: sites in order. */
    private static String pairScope(String a, String b) {
        return a.compareTo(b) <= 0 ? "pair:" + a + "-" + b : "pair:" + b + "-" + a;
    }
}
