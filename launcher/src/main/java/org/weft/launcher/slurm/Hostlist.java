package org.weft.launcher.slurm;

import java.util.ArrayList;
import java.util.List;

/**
 * SLURM's compressed host lists ({@code SLURM_JOB_NODELIST}), expanded as {@code scontrol show hostnames} does:
 * {@code n[1-3,07-08],login} is n1, n2, n3, n07, n08, login. A bracket holds numbers and ranges, a range keeps the
 * width of its first bound ({@code [01-10]}: 01 .. 10); several brackets in one name multiply
 * ({@code r[1-2]n[1-2]}: r1n1, r1n2, r2n1, r2n2); commas separate names only outside brackets.
 */
public final class Hostlist {
    private Hostlist() {
    }

    /**
     * The host names of {@code list}, in order.
     *
     * @throws IllegalArgumentException for an unbalanced bracket or a range that is not numbers
     */
    public static List<String> expand(String list) {
        List<String> hosts = new ArrayList<>();
        for (String name : topLevelNames(list)) {
            if (!name.isEmpty()) {
                expandName(name, list, hosts);
            }
        }
        return hosts;
    }

    /** {@code list} split at the commas outside brackets. */
    private static List<String> topLevelNames(String list) {
        List<String> names = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                names.add(list.substring(start, i).strip());
                start = i + 1;
            }
            if (depth < 0 || depth > 1) {
                throw new IllegalArgumentException("host list " + list + ": unbalanced brackets");
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("host list " + list + ": unbalanced brackets");
        }
        names.add(list.substring(start).strip());
        return names;
    }

    /** Adds the hosts of one name, whose first bracket is expanded here and the rest recursively. */
    private static void expandName(String name, String list, List<String> hosts) {
        int open = name.indexOf('[');
        if (open < 0) {
            hosts.add(name);
            return;
        }
        int close = name.indexOf(']', open);
        String prefix = name.substring(0, open);
        String rest = name.substring(close + 1);
        for (String range : name.substring(open + 1, close).split(",")) {
            for (String number : numbers(range.strip(), list)) {
                expandName(prefix + number + rest, list, hosts);
            }
        }
    }

    /** {@code 7} or {@code 07-10} as its numbers, each as wide as the range's first bound. */
    private static List<String> numbers(String range, String list) {
        int dash = range.indexOf('-');
        String low = dash < 0 ? range : range.substring(0, dash);
        String high = dash < 0 ? range : range.substring(dash + 1);
        if (!low.matches("[0-9]+") || !high.matches("[0-9]+")) {
            throw new IllegalArgumentException("host list " + list + ": [" + range + "] is not a number or a range");
        }
        long from = Long.parseLong(low);
        long to = Long.parseLong(high);
        if (to < from) {
            throw new IllegalArgumentException("host list " + list + ": the range [" + range + "] runs backwards");
        }
        List<String> numbers = new ArrayList<>();
        for (long n = from; n <= to; n++) {
            String digits = Long.toString(n);
            numbers.add("0".repeat(Math.max(0, low.length() - digits.length())) + digits);
        }
        return numbers;
    }
}
