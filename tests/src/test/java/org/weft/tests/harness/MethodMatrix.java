package org.weft.tests.harness;

import java.util.ArrayList;
import java.util.List;

/** The method matrix that {@code weftrun --report} prints: which method each sender used to each receiver. */
public final class MethodMatrix {
    private final List<List<String>> rows;

    private MethodMatrix(List<List<String>> rows) {
        this.rows = rows;
    }

    /** Parses the matrix of a job of {@code size} ranks out of its standard output. */
    public static MethodMatrix parse(String stdout, int size) {
        String[] lines = stdout.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("method matrix")) {
                List<List<String>> rows = new ArrayList<>();
                for (int r = 0; r < size && i + 2 + r < lines.length; r++) {
                    String[] cells = lines[i + 2 + r].trim().split("\\s+");
                    if (!cells[0].equals(Integer.toString(r))) {
                        throw new AssertionError("row " + r + " of the method matrix is missing in:\n" + stdout);
                    }
                    rows.add(List.of(cells).subList(1, cells.length));
                }
                return new MethodMatrix(rows);
            }
        }
        throw new AssertionError("no method matrix in:\n" + stdout);
    }

    /** The method {@code sender} used to reach {@code receiver}, or {@code -} if it never sent to it. */
    public String method(int sender, int receiver) {
        return rows.get(sender).get(receiver);
    }

    /**
     * Asserts the methods of a ring over four ranks in two groups (sites or hosts) of two: 0 -> 1 inside the
     * first group by {@code insideFirst}, 2 -> 3 inside the second by {@code insideSecond}, 1 -> 2 and 3 -> 0
     * across by {@code across}.
     */
    public void assertRingOfTwoPairs(String insideFirst, String insideSecond, String across) {
        check(0, 1, insideFirst, "inside the first group");
        check(2, 3, insideSecond, "inside the second group");
        check(1, 2, across, "across the groups");
        check(3, 0, across, "across the groups");
    }

    private void check(int sender, int receiver, String expected, String where) {
        if (!expected.equals(method(sender, receiver))) {
            throw new AssertionError(where + ": " + sender + " -> " + receiver + " used " + method(sender, receiver)
                    + ", expected " + expected + "\n" + this);
        }
    }

    @Override
    public String toString() {
        return String.join("\n", rows.stream().map(String::valueOf).toList());
    }
}
