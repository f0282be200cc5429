package org.weft.tests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.CommandRun;
import org.weft.tests.harness.Scripts;

/**
 * {@code benchmarks/scripts/compare-collectives.sh} in its quick mode, as a user runs it, for barrier (one row, 0 B)
 * and reduce_scatter_block at 2 and 3 ranks: its tables have the shape they promise (every collective, ranks count
 * and size once, both sides' figures positive, the ratio their quotient), and its plots are PNGs. Only the shape:
 * the figures of a quick run under load mean nothing. Needs Open MPI (mpicc, mpirun), as CI has; skipped without.
 */
class CompareCollectivesScriptJobTest {
    private static final List<String> COLLECTIVES = List.of("barrier", "reduce_scatter_block");
    private static final List<String> RANKS = List.of("2", "3");
    /** reduce_scatter_block's sizes in quick mode up to MAX=64: floats, so from 4 B. */
    private static final List<String> SIZES = List.of("4", "8", "16", "32", "64");

    @TempDir
    Path work;

    @Test
    void quickModeWritesEveryCollectivesRowsRatiosAndPlots() throws Exception {
        assumeTrue(onPath("mpicc") && onPath("mpirun"), "Open MPI is not installed");
        Path out = work.resolve("out");
        CommandRun.Result run = CommandRun.run(List.of(Scripts.find("benchmarks/scripts/compare-collectives.sh")
                .toString()), work, Map.of("QUICK", "1", "MAX", "64", "COLLS", String.join(" ", COLLECTIVES),
                "NPS", String.join(" ", RANKS), "OUT", out.toString()), Duration.ofMinutes(10));
        assertEquals(0, run.exitCode(), run.output());

        List<String> table = Files.readAllLines(out.resolve("collectives.csv"));
        assertEquals("collective,ranks,size,weft_us,openmpi_us,ratio", table.getFirst());
        List<String> keys = new ArrayList<>();
        for (String line : table.subList(1, table.size())) {
            String[] cells = line.split(",");
            assertEquals(6, cells.length, line);
            keys.add(cells[0] + " " + cells[1] + " " + cells[2]);
            double weft = Double.parseDouble(cells[3]);
            double openMpi = Double.parseDouble(cells[4]);
            assertTrue(weft > 0 && openMpi > 0, line);
            assertEquals(weft / openMpi, Double.parseDouble(cells[5]), 1e-3 * weft / openMpi, line);
        }
        List<String> expected = new ArrayList<>();
        for (String np : RANKS) {
            expected.add("barrier " + np + " 0");
        }
        for (String np : RANKS) {
            SIZES.forEach(size -> expected.add("reduce_scatter_block " + np + " " + size));
        }
        assertEquals(expected, keys, table.toString());

        for (String coll : COLLECTIVES) {
            for (String np : RANKS) {
                List<String> csv = Files.readAllLines(out.resolve(coll + "-np" + np + ".csv"));
                assertTrue(csv.contains("Size (bytes),Avg Latency (us) [Weft],Avg Latency (us) [Open MPI C],"
                        + "Ratio [Weft / Open MPI C]"), csv.toString());
                assertTrue(csv.stream().anyMatch(line -> line.startsWith("# rounds: 1 (medians); load: round 1: ")),
                        csv.toString());
            }
            assertPng(out.resolve(coll + ".png"));
        }
        assertPng(out.resolve("ratios.png"));
        String markdown = Files.readString(out.resolve("collectives.md"));
        for (String np : RANKS) {
            assertTrue(markdown.contains("| " + np + " ranks | 0 B | 4 B | 8 B | 16 B | 32 B | 64 B |"), markdown);
        }
        assertTrue(markdown.contains("\n| barrier | ") && markdown.contains("\n| reduce_scatter_block |  | "),
                markdown);
    }

    private static void assertPng(Path file) throws IOException {
        BufferedImage image = ImageIO.read(file.toFile());
        assertTrue(image != null, file + " is a PNG");
        assertEquals(1000, image.getWidth(), file.toString());
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool)));
    }
}
