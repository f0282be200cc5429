package org.weft.launcher.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code weft bench compare A.csv B.csv ...}: runs that {@code --csv} wrote, set against each other in one table
 * (each run's columns a series named after its file, {@link ResultTable#merge}), printed with, for two runs of the
 * same columns, each figure's ratio of the second run to the first; {@code --plot} and {@code --csv} write it.
 */
public final class RunComparison {
    private RunComparison() {
    }

    /** Reads the runs, each under its file's name without {@code .csv} (its path where two names are the same). */
    public static Map<String, ResultTable> read(List<Path> files) throws IOException {
        Map<String, ResultTable> runs = new LinkedHashMap<>();
        for (Path file : files) {
            String name = file.getFileName().toString().replaceFirst("\\.csv$", "");
            runs.put(runs.containsKey(name) ? file.toString() : name, TableCsv.read(file));
        }
        return runs;
    }

    /** Prints the merged table, and the ratios when there are two runs of the same columns. */
    public static void print(Map<String, ResultTable> runs, ResultTable merged, PrintStream out) {
        List<ResultTable> tables = new ArrayList<>(runs.values());
        List<String> names = new ArrayList<>(runs.keySet());
        boolean ratios = tables.size() == 2 && tables.get(0).columns().equals(tables.get(1).columns());
        List<String> header = new ArrayList<>(List.of(merged.rowLabel()));
        header.addAll(merged.columns());
        if (ratios) {
            tables.get(0).columns().forEach(column -> header.add(names.get(1) + " / " + names.get(0) + " "
                    + ResultTable.figureOf(column)));
        }
        out.println("# " + merged.title() + ": " + String.join(" vs ", names));
        out.println("# " + String.join(" | ", header));
        int columns = tables.isEmpty() ? 0 : tables.getFirst().columns().size();
        for (ResultTable.Row row : merged.rows()) {
            StringBuilder line = new StringBuilder(String.format("%-12s", row.label()));
            for (double figure : row.figures()) {
                line.append(String.format(" %14s", number(figure)));
            }
            for (int c = 0; ratios && c < columns; c++) {
                line.append(String.format(" %10s", number(row.figures()[columns + c] / row.figures()[c])));
            }
            out.println(line);
        }
    }

    private static String number(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "-" : String.format("%.3f", value);
    }
}
