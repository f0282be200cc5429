package org.weft.launcher.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes a run's table where {@code --csv} and {@code --plot} asked, and says so. */
public final class BenchFiles {
    private BenchFiles() {
    }

    /**
     * Writes {@code table} as CSV to {@code csv} and as a PNG plot to {@code plot} (either may be null); returns the
     * exit status: 0, or 1 (with a message on {@code err}) if the benchmark reported no table or a file could not be
     * written.
     *
     * @param facts the run's facts for the CSV's header (command, date, host, load)
     */
    public static int write(ResultTable table, Map<String, String> facts, Path csv, Path plot, PrintStream err) {
        if (table == null || table.rows().isEmpty()) {
            err.println("weft bench: the benchmark reported no figures, so there is nothing to write to "
                    + (csv != null ? csv : plot));
            return 1;
        }
        try {
            if (csv != null) {
                TableCsv.write(table, facts, csv);
                err.println("weft bench: wrote " + csv);
            }
            if (plot != null) {
                TablePlot.write(table, subtitle(facts), plot);
                err.println("weft bench: wrote " + plot);
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            err.println("weft bench: could not write " + (csv != null ? csv + " / " : "") + plot + ": " + e);
            return 1;
        }
    }

    /** The plot's subtitle: where and when it was measured, and how loaded the host was. */
    static String subtitle(Map<String, String> facts) {
        StringBuilder text = new StringBuilder();
        for (String key : new String[] {"host", "date", "load", "weft"}) {
            if (facts.containsKey(key)) {
                text.append(text.isEmpty() ? "" : ", ").append(key).append(' ').append(facts.get(key));
            }
        }
        return text.toString();
    }

    /** This host's name, as the CSV records it. */
    public static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The 1, 5 and 15 minute load averages ({@code /proc/loadavg}), or {@code "unknown"}. */
    public static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
