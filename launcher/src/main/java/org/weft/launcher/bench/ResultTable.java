package org.weft.launcher.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A benchmark's figures: a title, what the rows are ({@code "Size (bytes)"}), the columns of figures and the rows,
 * each a label on the x axis and one figure per column ({@code NaN} where a run has none), plus notes about the run
 * ({@code buffers=direct}). A column named {@code "Latency (us) [Open MPI]"} is the series {@code Open MPI} of the
 * figure {@code Latency (us)}: a plot draws one panel per figure and one line per series.
 */
public final class ResultTable {
    /** One row: its label on the x axis and its figures, one per column. */
    public record Row(String label, double[] figures) {
    }

    private final String title;
    private final String rowLabel;
    private final List<String> columns;
    private final List<Row> rows = new ArrayList<>();
    private final Map<String, String> notes = new LinkedHashMap<>();

    public ResultTable(String title, String rowLabel, List<String> columns) {
        this.title = title;
        this.rowLabel = rowLabel;
        this.columns = List.copyOf(columns);
    }

    public String title() {
        return title;
    }

    public String rowLabel() {
        return rowLabel;
    }

    public List<String> columns() {
        return columns;
    }

    public List<Row> rows() {
        return Collections.unmodifiableList(rows);
    }

    public Map<String, String> notes() {
        return Collections.unmodifiableMap(notes);
    }

    /** Adds a row; it must have one figure per column. */
    public void add(String label, double... figures) {
        if (figures.length != columns.size()) {
            throw new IllegalArgumentException("row " + label + " has " + figures.length + " figures for "
                    + columns.size() + " columns " + columns);
        }
        rows.add(new Row(label, figures.clone()));
    }

    public void note(String key, String value) {
        notes.put(key, value);
    }

    /** The figure of the row labelled {@code label} in {@code column}, or {@code NaN}. */
    public double figure(String label, String column) {
        int index = columns.indexOf(column);
        if (index < 0) {
            return Double.NaN;
        }
        return rows.stream().filter(row -> row.label().equals(label)).findFirst()
                .map(row -> row.figures()[index]).orElse(Double.NaN);
    }

    /** The figure a column shows ({@code "Latency (us)"} of {@code "Latency (us) [Open MPI]"}). */
    public static String figureOf(String column) {
        int bracket = column.lastIndexOf(" [");
        return bracket > 0 && column.endsWith("]") ? column.substring(0, bracket) : column;
    }

    /** The series a column belongs to ({@code "Open MPI"} of {@code "Latency (us) [Open MPI]"}), or {@code null}. */
    public static String seriesOf(String column) {
        int bracket = column.lastIndexOf(" [");
        return bracket > 0 && column.endsWith("]") ? column.substring(bracket + 2, column.length() - 1) : null;
    }

    /**
     * Several runs in one table, to set them against each other: every column of each becomes the series named
     * after its run ({@code "Latency (us) [Weft]"}, or {@code "Latency (us) [a.csv Open MPI]"} where a run had
     * series of its own), and the rows are the union of the runs' rows in the order they first appear (a run
     * without a row has {@code NaN} there). The title and row label are the first run's.
     *
     * @param runs the runs, each under the name its series get
     */
    public static ResultTable merge(Map<String, ResultTable> runs) {
        List<String> columns = new ArrayList<>();
        Set<String> labels = new LinkedHashSet<>();
        for (var run : runs.entrySet()) {
            for (String column : run.getValue().columns()) {
                String series = seriesOf(column);
                columns.add(figureOf(column) + " [" + (series == null ? run.getKey() : run.getKey() + " " + series)
                        + "]");
            }
            run.getValue().rows().forEach(row -> labels.add(row.label()));
        }
        ResultTable first = runs.values().iterator().next();
        ResultTable merged = new ResultTable(first.title(), first.rowLabel(), columns);
        for (String label : labels) {
            double[] figures = new double[columns.size()];
            int at = 0;
            for (ResultTable run : runs.values()) {
                for (String column : run.columns()) {
                    figures[at++] = run.figure(label, column);
                }
            }
            merged.add(label, figures);
        }
        runs.forEach((name, run) -> run.notes().forEach((key, value) -> merged.note(name + "." + key, value)));
        return merged;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(title + ": " + rowLabel + " " + columns);
        rows.forEach(row -> text.append("\n  ").append(row.label()).append(' ').append(Arrays.toString(row.figures())));
        return text.toString();
    }
}
