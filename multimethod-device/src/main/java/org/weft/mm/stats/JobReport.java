package org.weft.mm.stats;

import org.weft.adi.DeviceReport;
import org.weft.adi.DeviceReport.MethodReport;
import org.weft.adi.bootstrap.Bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.function.IntFunction;

/**
 * The job-wide report of {@code weftrun --report}: every rank's {@link DeviceReport} is gathered through the
 * bootstrap service at {@code MPI_Finalize} and rank 0 formats the method matrix and the per-method counters.
 *
 * <pre>
 * wire (one rank):  line 1: rank TAB host TAB idle strategy
 *                   line 2: method of peer 0 TAB method of peer 1 ...   ("-" = never used)
 *                   lines:  M TAB method TAB rsrsSent TAB bytesSent TAB rsrsDelivered TAB bytesDelivered TAB polls TAB productive
 *                   lines:  U TAB method TAB reason
 *                   lines:  N TAB note (a module's sentence about this rank)
 * </pre>
 */
public final class JobReport {
    private JobReport() {
    }

    /**
     * Collective: every rank calls it; rank 0 gets the formatted report, the others nothing. {@code siteOf} names
     * each rank's site (empty when the job has none).
     */
    public static Optional<String> gather(Bootstrap bootstrap, DeviceReport mine, IntFunction<String> siteOf) {
        try {
            byte[][] all = bootstrap.allGather(encode(mine).getBytes(StandardCharsets.UTF_8));
            if (mine.rank() != 0) {
                return Optional.empty();
            }
            List<DeviceReport> reports = new ArrayList<>();
            for (byte[] bytes : all) {
                reports.add(decode(new String(bytes, StandardCharsets.UTF_8)));
            }
            return Optional.of(format(reports, siteOf));
        } catch (IOException e) {
            throw new UncheckedIOException("bootstrap: cannot gather the job report", e);
        }
    }

    static String encode(DeviceReport r) {
        StringBuilder out = new StringBuilder();
        out.append(r.rank()).append('\t').append(r.host()).append('\t').append(r.idleStrategy()).append('\n');
        out.append(String.join("\t", r.methodByPeer().stream().map(m -> m == null ? "-" : m).toList())).append('\n');
        for (MethodReport m : r.methods()) {
            out.append("M\t").append(m.method()).append('\t').append(m.rsrsSent()).append('\t').append(m.bytesSent())
                    .append('\t').append(m.rsrsDelivered()).append('\t').append(m.bytesDelivered()).append('\t')
                    .append(m.polls()).append('\t').append(m.productivePolls()).append('\n');
        }
        r.unavailableMethods().forEach((method, why) ->
                out.append("U\t").append(method).append('\t').append(why.replace('\n', ' ')).append('\n'));
        for (String note : r.notes()) {
            out.append("N\t").append(note.replace('\n', ' ')).append('\n');
        }
        return out.toString();
    }

    static DeviceReport decode(String text) {
        String[] lines = text.split("\n");
        String[] head = lines[0].split("\t", 3);
        List<String> peers = new ArrayList<>();
        for (String m : lines[1].split("\t")) {
            peers.add(m.equals("-") ? null : m);
        }
        List<MethodReport> methods = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            String[] f = lines[i].split("\t");
            if (f[0].equals("M")) {
                methods.add(new MethodReport(f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4]),
                        Long.parseLong(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7])));
            } else if (f[0].equals("U")) {
                unavailable.put(f[1], f.length > 2 ? f[2] : "");
            } else if (f[0].equals("N")) {
                notes.add(lines[i].substring(2));
            }
        }
        return new DeviceReport(Integer.parseInt(head[0]), head[1], head[2], peers, methods, unavailable, notes);
    }

    /**
     * The method matrix (row: sender, column: receiver) and one line of counters per rank and method; poll counts
     * are marked {@code ~}, as they may lose a few counts when several threads poll.
     */
    public static String format(List<DeviceReport> reports, IntFunction<String> siteOf) {
        StringBuilder out = new StringBuilder();
        int n = reports.size();
        out.append("weft report: ").append(n).append(n == 1 ? " rank\n" : " ranks\n");
        String sites = siteRanges(n, siteOf);
        if (!sites.isEmpty()) {
            out.append("sites: ").append(sites).append('\n');
        }
        out.append("method matrix (row = sending rank, column = receiving rank, - = not used):\n");
        out.append(String.format("%6s", ""));
        for (int c = 0; c < n; c++) {
            out.append(String.format(" %9d", c));
        }
        out.append('\n');
        for (DeviceReport r : reports) {
            out.append(String.format("%6d", r.rank()));
            for (String m : r.methodByPeer()) {
                out.append(String.format(" %9s", m == null ? "-" : m));
            }
            out.append('\n');
        }
        out.append(String.format("%-6s %-10s %12s %14s %12s %14s %12s %12s%n", "rank", "method", "rsrs-sent",
                "bytes-sent", "rsrs-recvd", "bytes-recvd", "polls~", "polls-work~"));
        for (DeviceReport r : reports) {
            for (MethodReport m : r.methods()) {
                out.append(String.format("%-6d %-10s %12d %14d %12d %14d %12d %12d%n", r.rank(), m.method(),
                        m.rsrsSent(), m.bytesSent(), m.rsrsDelivered(), m.bytesDelivered(), m.polls(),
                        m.productivePolls()));
            }
        }
        for (DeviceReport r : reports) {
            out.append("rank ").append(r.rank()).append(" on ").append(r.host()).append(": idle strategy ")
                    .append(r.idleStrategy());
            r.unavailableMethods().forEach((m, why) -> out.append("; ").append(m).append(" unavailable: ").append(why));
            out.append('\n');
        }
        for (DeviceReport r : reports) {
            for (String note : r.notes()) {
                out.append("rank ").append(r.rank()).append(": ").append(note).append('\n');
            }
        }
        return out.toString();
    }

    /** "a = ranks 0-1, b = ranks 2-3" for a job with sites (ranks are contiguous per site), else "". */
    static String siteRanges(int n, IntFunction<String> siteOf) {
        StringJoiner ranges = new StringJoiner(", ");
        int first = 0;
        for (int r = 1; r <= n; r++) {
            if (r == n || !siteOf.apply(r).equals(siteOf.apply(first))) {
                String site = siteOf.apply(first);
                if (!site.isEmpty()) {
                    ranges.add(site + " = rank" + (r - 1 == first ? " " + first : "s " + first + "-" + (r - 1)));
                }
                first = r;
            }
        }
        return ranges.toString();
    }
}
