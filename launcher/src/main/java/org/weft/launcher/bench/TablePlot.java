package org.weft.launcher.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * A {@link ResultTable} as a PNG line chart (JFreeChart, drawn off screen: no display needed): the rows along the x
 * axis in their order (sizes as {@code 0 1 2 ... 1K ... 4M}, evenly spaced, so 0 B has its place), one panel per
 * figure ({@code Latency (us)}, {@code Bandwidth (MB/s)}) sharing that axis, and in each panel one line per series
 * (Weft, Open MPI, or the runs that {@code weft bench compare} sets against each other). A panel whose figures span
 * more than {@link #LOG_SPAN} times is on a logarithmic scale.
 */
public final class TablePlot {
    /** Width of the image, and height of one panel, in pixels. */
    static final int WIDTH = 1000;
    static final int PANEL_HEIGHT = 420;
    private static final int FRAME_HEIGHT = 160;
    /** A panel's figures spanning more than this factor get a logarithmic axis (latency from 0 B to 4 MiB). */
    static final double LOG_SPAN = 30;

    /** The series' colours, in column order (Weft first, then the reference or the other runs). */
    private static final Color[] PALETTE = {new Color(0xD62728), new Color(0x1F77B4), new Color(0x2CA02C),
            new Color(0xFF7F0E), new Color(0x9467BD), new Color(0x8C564B)};

    private TablePlot() {
    }

    /** Draws {@code table} into {@code file}; {@code subtitle} (may be null) says where and how it was measured. */
    public static void write(ResultTable table, String subtitle, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true"); // before AWT starts: the launcher never opens a window
        CategoryAxis rows = new CategoryAxis(table.rowLabel());
        if (table.rows().size() > 12) {
            rows.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(rows);
        plot.setGap(12);
        List<String> figures = figures(table);
        int series = 0;
        for (String figure : figures) {
            CategoryPlot panel = panel(table, figure);
            series = Math.max(series, panel.getDataset().getRowCount());
            plot.add(panel, 1);
        }
        JFreeChart chart = new JFreeChart(table.title(), JFreeChart.DEFAULT_TITLE_FONT, plot, series > 1);
        if (subtitle != null && !subtitle.isBlank()) {
            chart.addSubtitle(new TextTitle(subtitle));
        }
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, FRAME_HEIGHT + PANEL_HEIGHT * figures.size());
    }

    /** The table's figures, in the order of their first columns. */
    static List<String> figures(ResultTable table) {
        Set<String> figures = new LinkedHashSet<>();
        table.columns().forEach(column -> figures.add(ResultTable.figureOf(column)));
        return new ArrayList<>(figures);
    }

    private static CategoryPlot panel(ResultTable table, String figure) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        double smallest = Double.MAX_VALUE;
        double largest = 0;
        for (int c = 0; c < table.columns().size(); c++) {
            String column = table.columns().get(c);
            if (!ResultTable.figureOf(column).equals(figure)) {
                continue;
            }
            String series = ResultTable.seriesOf(column) == null ? figure : ResultTable.seriesOf(column);
            for (ResultTable.Row row : table.rows()) {
                double value = row.figures()[c];
                data.addValue(Double.isNaN(value) ? null : value, series, axisLabel(table.rowLabel(), row.label()));
                if (!Double.isNaN(value)) {
                    smallest = Math.min(smallest, value);
                    largest = Math.max(largest, value);
                }
            }
        }
        LineAndShapeRenderer lines = new LineAndShapeRenderer(true, true);
        for (int s = 0; s < data.getRowCount(); s++) {
            lines.setSeriesStroke(s, new BasicStroke(2f));
            lines.setSeriesPaint(s, PALETTE[s % PALETTE.length]); // a series has its colour in every panel
        }
        CategoryPlot panel = new CategoryPlot(data, null, valueAxis(figure, smallest, largest), lines);
        panel.setBackgroundPaint(Color.WHITE);
        panel.setRangeGridlinePaint(Color.LIGHT_GRAY);
        panel.setDomainGridlinesVisible(true);
        panel.setDomainGridlinePaint(Color.LIGHT_GRAY);
        return panel;
    }

    private static ValueAxis valueAxis(String figure, double smallest, double largest) {
        if (smallest > 0 && largest / smallest > LOG_SPAN) {
            LogAxis axis = new LogAxis(figure);
            axis.setBase(10);
            axis.setSmallestValue(smallest / 2);
            axis.setTickUnit(new NumberTickUnit(1)); // a tick per decade, labelled 0.1 1 10 100 rather than 10^x
            axis.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
            axis.setMinorTickCount(9);
            axis.setMinorTickMarksVisible(true);
            return axis;
        }
        NumberAxis axis = new NumberAxis(figure);
        axis.setAutoRangeIncludesZero(true);
        return axis;
    }

    /** A row's label on the axis: sizes of whole KiB or MiB as {@code 4K}, {@code 1M}; anything else as it is. */
    static String axisLabel(String rowLabel, String label) {
        if (!rowLabel.startsWith("Size")) {
            return label;
        }
        try {
            long bytes = Long.parseLong(label);
            if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
                return bytes / (1 << 20) + "M";
            }
            return bytes >= 1024 && bytes % 1024 == 0 ? bytes / 1024 + "K" : label;
        } catch (NumberFormatException e) {
            return label;
        }
    }
}
