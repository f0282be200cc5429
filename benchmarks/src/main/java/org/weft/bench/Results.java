package org.weft.bench;

import java.io.PrintStream;
import java.util.StringJoiner;

/**
 * The figures of a benchmark as one table, for {@code weft bench} (its {@code --csv} file, its {@code --plot} PNG
 * and its progress display): a title, what the rows are ({@code "Size (bytes)"}), the figures' columns ({@code
 * "Latency (us)"}), then one row per point as it is measured. A benchmark keeps printing its own human-readable
 * output; beside it, each call here prints one line {@code #@weft-bench<TAB>KIND<TAB>FIELDS...} on standard output,
 * which {@code weft bench} takes out of the output and reads ({@code org.weft.launcher.bench.ResultLines}). The lines
 * are printed only when the JVM runs with {@code -Dweft.bench.results=true}, which {@code weft bench} sets: the same
 * benchmark run by plain {@code weftrun} or under Open MPI's {@code mpirun} prints what it always did.
 *
 * <p>Call it on the rank that prints the figures (rank 0) only:
 * <pre>{@code
 * Results results = Results.table("osu_latency", "Size (bytes)", "Latency (us)").expect(sizes);
 * results.row(size, micros);   // once per point, as soon as it is measured
 * }</pre>
 */
public final class Results {
    /** The first field of every line: {@code org.weft.launcher.bench.ResultLines#MARKER} reads the same string. */
    static final String MARKER = "#@weft-bench";
    private static final boolean ENABLED = Boolean.getBoolean("weft.bench.results");

    private final PrintStream out;
    private final boolean enabled;
    private final int columns;

    Results(PrintStream out, boolean enabled, int columns) {
        this.out = out;
        this.enabled = enabled;
        this.columns = columns;
    }

    /**
     * Starts the table: {@code title} names the benchmark (the plot's title), {@code rowLabel} what the rows are
     * (the x axis: sizes, windows, thread counts, cases), {@code columns} the figures of each row, each with its
     * unit in brackets ({@code "Latency (us)"}, {@code "Bandwidth (MB/s)"}; one plot panel per column).
     */
    public static Results table(String title, String rowLabel, String... columns) {
        Results results = new Results(System.out, ENABLED, columns.length);
        String[] fields = new String[columns.length + 2];
        fields[0] = title;
        fields[1] = rowLabel;
        System.arraycopy(columns, 0, fields, 2, columns.length);
        results.line("table", fields);
        return results;
    }

    /** Says how many rows the table will have, so that a long sweep shows its progress; returns this. */
    public Results expect(int rows) {
        line("expect", Integer.toString(rows));
        return this;
    }

    /** How many sizes a sweep from {@code min} to {@code max} bytes visits (0, 1, 2, 4, ... or 1, 2, 4, ...). */
    public static int sizes(int min, int max) {
        int count = 0;
        for (long size = min; size <= max; size = size == 0 ? 1 : size * 2) {
            count++;
        }
        return count;
    }

    /** A fact about the run that the figures depend on ({@code buffers=direct}, {@code ranks=4}); kept in the CSV. */
    public Results note(String key, Object value) {
        line("note", key, String.valueOf(value));
        return this;
    }

    /** One row: its label on the x axis (a size, a window number, a case's name) and one figure per column. */
    public void row(Object label, double... figures) {
        if (figures.length != columns) {
            throw new IllegalArgumentException(figures.length + " figures for " + columns + " columns");
        }
        String[] fields = new String[figures.length + 1];
        fields[0] = String.valueOf(label);
        for (int i = 0; i < figures.length; i++) {
            fields[i + 1] = Double.toString(figures[i]);
        }
        line("row", fields);
    }

    private void line(String kind, String... fields) {
        if (!enabled) {
            return;
        }
        StringJoiner line = new StringJoiner("\t").add(MARKER).add(kind);
        for (String field : fields) {
            line.add(field.replace('\t', ' ').replace('\n', ' ')); // a field never splits
        }
        out.println(line);
    }
}
