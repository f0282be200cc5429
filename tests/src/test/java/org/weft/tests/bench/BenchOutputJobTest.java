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
import java.util.stream.Stream;
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

    /**
     * {@code --reference} runs Open MPI's C ping-pong after Weft's in the same invocation and writes both (where
     * Open MPI is installed, as in CI), and {@code compare} sets that run against a run of Weft alone.
     */
    @Test
    void referenceRunsOpenMpisTwinAndCompareSetsTwoRunsAgainstEachOther() throws Exception {
        CommandRun.Result alone = weft("bench", "latency", "-m", "64", "-i", "300", "--csv", "a.csv");
        assertEquals(0, alone.exitCode(), alone.output());
        boolean openMpi = onPath("mpicc") && onPath("mpirun");
        List<String> args = new ArrayList<>(List.of("bench", "latency", "-m", "64", "-i", "300", "--csv", "b.csv",
                "--plot", "b.png"));
        if (openMpi) {
            args.add("--reference");
        }
        CommandRun.Result both = weft(args.toArray(String[]::new));
        assertEquals(0, both.exitCode(), both.output());
        List<String> b = Files.readAllLines(work.resolve("b.csv"));
        List<String> series = openMpi ? List.of("Weft", "Open MPI C") : List.of();
        if (openMpi) {
            assertEquals("Size (bytes),Latency (us) [Weft],Latency (us) [Open MPI C]", dataOf(b).getFirst());
            // the twin prints "size latency bandwidth": its latencies are the CSV's second series, size for size
            Map<String, Double> weftRows = printedRows(both.stdout());
            Map<String, Double> cRows = new LinkedHashMap<>();
            Matcher c = Pattern.compile("(?m)^(\\d+)\\s+([0-9.]+)\\s+[0-9.]+$").matcher(both.stdout());
            while (c.find()) {
                cRows.put(c.group(1), Double.parseDouble(c.group(2)));
            }
            assertEquals(8, weftRows.size(), "0 B .. 64 B:\n" + both.stdout());
            assertEquals(weftRows.keySet(), cRows.keySet(), both.stdout());
            for (String row : dataOf(b).subList(1, 9)) {
                String[] cells = row.split(",");
                assertEquals(weftRows.get(cells[0]), Double.parseDouble(cells[1]), 0.0051, b.toString());
                assertEquals(cRows.get(cells[0]), Double.parseDouble(cells[2]), 0.0051, b.toString());
            }
        }
        assertPlotDrawn(work.resolve("b.png"), 1);

        CommandRun.Result compare = weft("bench", "compare", "a.csv", "b.csv", "--plot", "ab.png", "--csv", "ab.csv");
        assertEquals(0, compare.exitCode(), compare.output());
        List<String> ab = Files.readAllLines(work.resolve("ab.csv"));
        String header = "Size (bytes),Latency (us) [a]" + (openMpi
                ? ",Latency (us) [b Weft],Latency (us) [b Open MPI C]" : ",Latency (us) [b]");
        assertEquals(header, dataOf(ab).getFirst(), ab.toString());
        List<String> a = Files.readAllLines(work.resolve("a.csv"));
        for (int i = 1; i < dataOf(a).size(); i++) {
            // each run's cells, side by side
            assertEquals(dataOf(a).get(i) + dataOf(b).get(i).substring(dataOf(b).get(i).indexOf(',')),
                    dataOf(ab).get(i));
        }
        assertEquals(dataOf(a).size(), dataOf(ab).size());
        assertTrue(compare.stdout().contains("# OSU-style latency: a vs b"), compare.stdout() + series);
        assertPlotDrawn(work.resolve("ab.png"), 1);
    }

    private static List<String> dataOf(List<String> csv) {
        return csv.stream().filter(line -> !line.startsWith("#")).toList();
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)));
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
