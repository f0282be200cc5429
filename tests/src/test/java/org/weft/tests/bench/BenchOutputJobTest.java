package org.weft.tests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.CommandRun;
import org.weft.tests.harness.Scripts;

/**
 * {@code weft bench ... --csv FILE --plot FILE} run as a user runs it ({@code bin/weft} of the build tree): the CSV
 * holds the figures the benchmark printed, row for row, and the PNG is a picture of the expected size with a plot
 * drawn on it; the benchmark's result lines never reach the user's output.
 */
class BenchOutputJobTest {
    /** OSU rows as the benchmarks print them: size, then the figure with two decimals. */
    private static final Pattern ROW = Pattern.compile("(?m)^(\\d+)\\s+([0-9.]+)$");

    @TempDir
    Path work;

    @Test
    void latencyWritesItsFiguresAsCsvAndPlot() throws Exception {
        CommandRun.Result run = weft("bench", "latency", "-m", "1024", "-i", "200", "--csv", "lat.csv", "--plot",
                "lat.png");
        assertEquals(0, run.exitCode(), run.output());
        assertTrue(!run.output().contains("#@weft-bench"), "result lines are weft bench's, not output:\n" + run.output());
        Map<String, Double> printed = printedRows(run.stdout());
        assertEquals(12, printed.size(), "0 B .. 1 KiB:\n" + run.stdout());
        assertCsvHolds(work.resolve("lat.csv"), "Size (bytes)", "Latency (us)", printed);
        assertPlotDrawn(work.resolve("lat.png"), 1);
        // not a terminal: plain progress lines, the last at 100 %
        assertTrue(run.stderr().contains("100% (12 of 12 rows, last 1024)"), run.stderr());
    }

    @Test
    void aCollectiveOnThreeRanksWritesItsFiguresToo() throws Exception {
        CommandRun.Result run = weft("bench", "-np", "3", "--plot", "bcast.png", "--csv", "bcast.csv", "bcast",
                "-m", "64", "-i", "50");
        assertEquals(0, run.exitCode(), run.output());
        Map<String, Double> printed = printedRows(run.stdout());
        assertEquals(7, printed.size(), "1 B .. 64 B:\n" + run.stdout());
        List<String> csv = assertCsvHolds(work.resolve("bcast.csv"), "Size (bytes)", "Avg Latency (us)", printed);
        assertTrue(csv.contains("# ranks: 3"), csv.toString());
        assertPlotDrawn(work.resolve("bcast.png"), 1);
    }

    @Test
    void aBenchmarkOfItsOwnFormatWritesItsTableToo() throws Exception {
        CommandRun.Result run = weft("bench", "selfcost", "-m", "4", "-i", "2000", "--csv", "self.csv");
        assertEquals(0, run.exitCode(), run.output());
        Map<String, Double> printed = printedRows(run.stdout());
        assertEquals(List.of("0", "1", "2", "4"), List.copyOf(printed.keySet()), run.stdout());
        List<String> lines = Files.readAllLines(work.resolve("self.csv"));
        List<String> data = lines.stream().filter(line -> !line.startsWith("#")).toList();
        assertEquals("Size (bytes),Send+recv (ns)", data.getFirst());
        for (int i = 1; i < data.size(); i++) {
            String[] cells = data.get(i).split(",");
            assertEquals(printed.get(cells[0]), Double.parseDouble(cells[1]), 0.051, lines.toString()); // 1 decimal
        }
        assertEquals(printed.size() + 1, data.size(), lines.toString());
    }

    /** Checks that {@code file} has the header and exactly the printed rows; returns its lines. */
    static List<String> assertCsvHolds(Path file, String rowLabel, String column, Map<String, Double> printed)
            throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<String> data = lines.stream().filter(line -> !line.startsWith("#")).toList();
        assertEquals(rowLabel + "," + column, data.getFirst(), lines.toString());
        Map<String, Double> written = new LinkedHashMap<>();
        for (String line : data.subList(1, data.size())) {
            String[] cells = line.split(",");
            written.put(cells[0], Double.parseDouble(cells[1]));
        }
        assertEquals(printed.keySet(), written.keySet(), lines.toString());
        // the benchmark prints two decimals; the CSV keeps every digit
        printed.forEach((size, figure) -> assertEquals(figure, written.get(size), 0.0051, size + " B in " + lines));
        assertTrue(lines.stream().anyMatch(line -> line.startsWith("# load: ")), lines.toString());
        return lines;
    }

    /** Checks that {@code file} is a PNG of the plot's size for {@code panels} panels with a plot drawn on it. */
    static BufferedImage assertPlotDrawn(Path file, int panels) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        assertTrue(image != null, file + " is a PNG");
        assertEquals(1000, image.getWidth());
        assertEquals(160 + 420 * panels, image.getHeight());
        int white = 0xFFFFFFFF;
        int coloured = 0;
        int dark = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xFF;
                int g = (rgb >> 8) & 0xFF;
                int b = rgb & 0xFF;
                if (rgb != white && Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80) {
                    coloured++; // a series' line or marks (the axes, text and grid are grey or black)
                } else if (r + g + b < 200) {
                    dark++; // text and axes
                }
            }
        }
        assertTrue(coloured > 500, coloured + " coloured pixels: the series are drawn");
        assertTrue(dark > 1000, dark + " dark pixels: titles, labels and axes are drawn");
        return image;
    }

    /** The OSU rows (size, figure) in a benchmark's output, in order. */
    static Map<String, Double> printedRows(String stdout) {
        Map<String, Double> rows = new LinkedHashMap<>();
        Matcher row = ROW.matcher(stdout);
        while (row.find()) {
            rows.put(row.group(1), Double.parseDouble(row.group(2)));
        }
        return rows;
    }

    private CommandRun.Result weft(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Scripts.find("bin/weft").toString()));
        command.addAll(List.of(args));
        return CommandRun.run(command, work, Map.of(), Duration.ofSeconds(120));
    }
}
