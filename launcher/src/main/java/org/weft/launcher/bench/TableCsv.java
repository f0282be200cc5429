package org.weft.launcher.bench;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link ResultTable} as CSV (RFC 4180; a spreadsheet or {@code pandas.read_csv(f, comment='#')} reads it): first
 * {@code # key: value} lines (the title, then the run's facts: command, date, host, load, the benchmark's notes),
 * then the header ({@code Size (bytes),Latency (us)}) and one line per row. A figure a row lacks is an empty cell.
 * {@link #read} takes back what {@link #write} wrote, for {@code weft bench compare}.
 */
public final class TableCsv {
    private static final String TITLE = "title";

    private TableCsv() {
    }

    /** Writes {@code table} to {@code file}: its title, then {@code facts} and its notes, then the rows. */
    public static void write(ResultTable table, Map<String, String> facts, Path file) throws IOException {
        StringBuilder csv = new StringBuilder();
        csv.append("# ").append(TITLE).append(": ").append(table.title()).append('\n');
        facts.forEach((key, value) -> csv.append("# ").append(key).append(": ").append(value).append('\n'));
        table.notes().forEach((key, value) -> csv.append("# ").append(key).append(": ").append(value).append('\n'));
        List<String> header = new ArrayList<>(List.of(table.rowLabel()));
        header.addAll(table.columns());
        csv.append(String.join(",", header.stream().map(TableCsv::quote).toList())).append('\n');
        for (ResultTable.Row row : table.rows()) {
            csv.append(quote(row.label()));
            for (double figure : row.figures()) {
                csv.append(',').append(Double.isNaN(figure) ? "" : BigDecimal.valueOf(figure).toPlainString());
            }
            csv.append('\n');
        }
        Files.writeString(file, csv, StandardCharsets.UTF_8);
    }

    /** Reads a table that {@link #write} wrote (its comment lines other than the title come back as notes). */
    public static ResultTable read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String title = file.getFileName().toString();
        List<String[]> notes = new ArrayList<>();
        int at = 0;
        for (; at < lines.size() && (lines.get(at).startsWith("#") || lines.get(at).isBlank()); at++) {
            String comment = lines.get(at).replaceFirst("^#\\s*", "");
            int colon = comment.indexOf(": ");
            if (colon > 0 && comment.substring(0, colon).equals(TITLE)) {
                title = comment.substring(colon + 2);
            } else if (colon > 0) {
                notes.add(new String[] {comment.substring(0, colon), comment.substring(colon + 2)});
            }
        }
        if (at == lines.size()) {
            throw new IOException(file + ": no header line (a CSV of weft bench --csv starts with one after '#')");
        }
        List<String> header = cells(lines.get(at));
        ResultTable table = new ResultTable(title, header.getFirst(), header.subList(1, header.size()));
        notes.forEach(note -> table.note(note[0], note[1]));
        for (int i = at + 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> cells = cells(lines.get(i));
            if (cells.size() != header.size()) {
                throw new IOException(file + ":" + (i + 1) + ": " + cells.size() + " cells where the header has "
                        + header.size());
            }
            double[] figures = new double[cells.size() - 1];
            for (int c = 1; c < cells.size(); c++) {
                figures[c - 1] = figure(cells.get(c), file, i + 1);
            }
            table.add(cells.getFirst(), figures);
        }
        return table;
    }

    private static double figure(String cell, Path file, int line) throws IOException {
        if (cell.isBlank()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(cell.strip());
        } catch (NumberFormatException e) {
            throw new IOException(file + ":" + line + ": '" + cell + "' is not a number");
        }
    }

    private static String quote(String cell) {
        return cell.contains(",") || cell.contains("\"") ? '"' + cell.replace("\"", "\"\"") + '"' : cell;
    }

    /** The cells of one CSV line, with RFC 4180's quotes undone. */
    static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                cell.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells;
    }
}
