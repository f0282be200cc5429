package org.weft.launcher.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Reads the lines a benchmark prints for {@code weft bench} ({@code org.weft.bench.Results}: {@code #@weft-bench},
 * a kind, then tab-separated fields) into a {@link ResultTable}, and tells {@link Progress} about each row.
 * <ul>
 * <li>{@code table TITLE ROW-LABEL COLUMN...} starts the table (a later one replaces it: one table per run);
 * <li>{@code expect N}: the table will have N rows;
 * <li>{@code note KEY VALUE}: a fact about the run;
 * <li>{@code row LABEL FIGURE...}: one row.
 * </ul>
 * A line it cannot read is reported on the benchmark's error stream and dropped: the run goes on.
 */
public final class ResultLines {
    /** The first field of every line; {@code org.weft.bench.Results#MARKER} writes the same string. */
    public static final String MARKER = "#@weft-bench";

    private final Progress progress;
    private ResultTable table;

    public ResultLines(Progress progress) {
        this.progress = progress;
    }

    /** Whether {@code line} is one of the benchmark's result lines (which are then not shown as output). */
    public static boolean isResultLine(String line) {
        return line.startsWith(MARKER + "\t");
    }

    /** Reads one result line; returns an error message if it could not, else {@code null}. */
    public String accept(String line) {
        List<String> fields = Arrays.asList(line.split("\t", -1));
        if (fields.size() < 2) {
            return "empty result line";
        }
        List<String> values = fields.subList(2, fields.size());
        try {
            switch (fields.get(1)) {
                case "table" -> {
                    table = new ResultTable(values.get(0), values.get(1), values.subList(2, values.size()));
                    progress.start(table.title());
                }
                case "expect" -> progress.expect(Integer.parseInt(values.getFirst()));
                case "note" -> requireTable().note(values.get(0), values.get(1));
                case "row" -> {
                    double[] figures = values.subList(1, values.size()).stream().mapToDouble(Double::parseDouble)
                            .toArray();
                    requireTable().add(values.getFirst(), figures);
                    progress.row(values.getFirst());
                }
                default -> {
                    return "unknown result line kind '" + fields.get(1) + "'";
                }
            }
        } catch (RuntimeException e) {
            return "unreadable result line '" + line.replace('\t', ' ') + "': " + e.getMessage();
        }
        return null;
    }

    /** The table the benchmark reported, or {@code null} if it reported none. */
    public ResultTable table() {
        return table;
    }

    private ResultTable requireTable() {
        if (table == null) {
            throw new IllegalStateException("no table line before it");
        }
        return table;
    }
}
