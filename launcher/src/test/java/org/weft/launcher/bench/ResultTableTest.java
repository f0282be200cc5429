package org.weft.launcher.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result lines to a table, the table to CSV and back, runs merged, and the progress a sweep shows. */
class ResultTableTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    @Test
    void resultLinesBecomeATableAndOtherLinesPassThrough() {
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        Progress progress = new Progress(err, false);
        ResultLines results = new ResultLines(progress);
        try (PrintStream job = new PrintStream(new ResultCapture(new PrintStream(outBytes, true,
                StandardCharsets.UTF_8), err, results, progress), true, StandardCharsets.UTF_8)) {
            job.println("# Size  Latency (us)");
            job.println("#@weft-bench\ttable\tOSU-style latency\tSize (bytes)\tLatency (us)");
            job.println("#@weft-bench\texpect\t2");
            job.println("#@weft-bench\tnote\tbuffers\tdirect");
            job.println("0  0.50");
            job.println("#@weft-bench\trow\t0\t0.5012");
            job.println("#@weft-bench\trow\tnot-a-row");
            job.println("#@weft-bench\trow\t1\t0.52");
        }
        assertEquals("# Size  Latency (us)\n0  0.50\n", outBytes.toString(StandardCharsets.UTF_8));
        ResultTable table = results.table();
        assertEquals("OSU-style latency", table.title());
        assertEquals(List.of("Latency (us)"), table.columns());
        assertEquals(0.5012, table.figure("0", "Latency (us)"));
        assertEquals(0.52, table.figure("1", "Latency (us)"));
        assertEquals(Map.of("buffers", "direct"), table.notes());
        String errors = errBytes.toString(StandardCharsets.UTF_8);
        assertTrue(errors.contains("weft bench: unreadable result line '#@weft-bench row not-a-row'"), errors);
        assertTrue(errors.contains("50% (1 of 2 rows, last 0)") && errors.contains("100% (2 of 2 rows, last 1)"),
                errors);
    }

    @Test
    void aTerminalGetsABarThatOtherLinesDoNotBreak() {
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        PrintStream terminal = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        Progress progress = new Progress(terminal, true);
        ResultLines results = new ResultLines(progress);
        try (PrintStream job = new PrintStream(new ResultCapture(terminal, terminal, results, progress), true,
                StandardCharsets.UTF_8)) {
            job.println("#@weft-bench\ttable\tbw\tSize (bytes)\tBandwidth (MB/s)");
            job.println("#@weft-bench\texpect\t4");
            job.println("#@weft-bench\trow\t1\t2.5");
            job.println("1  2.50");
        }
        progress.finish();
        String screen = outBytes.toString(StandardCharsets.UTF_8);
        assertTrue(screen.contains("\r[" + "#".repeat(7) + ".".repeat(23) + "] 1/4 bw 1\033[K"), screen);
        // the bar is taken off its line before the output line and drawn again after it, then cleared at the end
        assertTrue(screen.contains("\r\033[K1  2.50\n\r[#######"), screen);
        assertTrue(screen.endsWith("\r\033[K"), screen);
    }

    @Test
    void csvKeepsEveryFigureAndReadsBack() throws Exception {
        ResultTable table = new ResultTable("a, \"quoted\" title", "Case", List.of("One-way (us)", "Rate (MB/s)"));
        table.add("shm, busy", 0.123456789, Double.NaN);
        table.add("tcp", 12.5, 3e9);
        table.note("ranks", "2");
        Path file = dir.resolve("t.csv");
        TableCsv.write(table, Map.of("load", "1.0 2.0 3.0"), file);
        List<String> lines = Files.readAllLines(file);
        assertEquals(List.of("# title: a, \"quoted\" title", "# load: 1.0 2.0 3.0", "# ranks: 2",
                "Case,One-way (us),Rate (MB/s)", "\"shm, busy\",0.123456789,", "tcp,12.5,3000000000"), lines);
        ResultTable back = TableCsv.read(file);
        assertEquals(table.title(), back.title());
        assertEquals(table.columns(), back.columns());
        assertEquals(2, back.rows().size());
        assertArrayEquals(table.rows().get(0).figures(), back.rows().get(0).figures());
        assertEquals("shm, busy", back.rows().get(0).label());
        assertEquals("2", back.notes().get("ranks"));
    }

    @Test
    void mergedRunsAreSeriesOfTheSameFigures() {
        ResultTable weft = new ResultTable("latency", "Size (bytes)", List.of("Latency (us)"));
        weft.add("0", 0.5);
        weft.add("1", 0.6);
        ResultTable ompi = new ResultTable("pingpong", "Size (bytes)", List.of("Latency (us)"));
        ompi.add("0", 0.2);
        ompi.add("2", 0.3);
        Map<String, ResultTable> runs = new LinkedHashMap<>();
        runs.put("Weft", weft);
        runs.put("Open MPI", ompi);
        ResultTable merged = ResultTable.merge(runs);
        assertEquals(List.of("Latency (us) [Weft]", "Latency (us) [Open MPI]"), merged.columns());
        assertEquals(List.of("0", "1", "2"), merged.rows().stream().map(ResultTable.Row::label).toList());
        assertArrayEquals(new double[] {0.6, Double.NaN}, merged.rows().get(1).figures());
        assertEquals("Latency (us)", ResultTable.figureOf(merged.columns().get(1)));
        assertEquals("Open MPI", ResultTable.seriesOf(merged.columns().get(1)));
        assertNull(ResultTable.seriesOf("Latency (us)"));
        Map<String, ResultTable> again = new LinkedHashMap<>();
        again.put("a", merged);
        again.put("b", weft);
        assertEquals(List.of("Latency (us) [a Weft]", "Latency (us) [a Open MPI]", "Latency (us) [b]"),
                ResultTable.merge(again).columns());
    }

    @Test
    void sizesAreLabelledInKibAndMib() {
        assertEquals("0", TablePlot.axisLabel("Size (bytes)", "0"));
        assertEquals("1000", TablePlot.axisLabel("Size (bytes)", "1000"));
        assertEquals("4K", TablePlot.axisLabel("Size (bytes)", "4096"));
        assertEquals("4M", TablePlot.axisLabel("Size (bytes)", "4194304"));
        assertEquals("4096", TablePlot.axisLabel("Window", "4096"));
    }
}
