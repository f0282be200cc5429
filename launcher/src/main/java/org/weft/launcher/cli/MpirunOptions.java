package org.weft.launcher.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.weft.launcher.io.OutputFiles;
import org.weft.launcher.plan.JobPlan;
import org.weft.mm.affinity.CpuBinding;
import picocli.CommandLine.Option;

/**
 * Open MPI {@code mpirun} options that people type without thinking, taken so that their command lines run: those
 * that mean something here are honoured ({@code --map-by slot|node}, {@code --display-map}, {@code --bind-to
 * core|hwthread|none} — unset, the ranks' own choice —, {@code --report-bindings}, {@code --output-filename}, {@code -q}),
 * the others are accepted with one warning each, saying what Weft does instead.
 */
final class MpirunOptions {
    /** The {@code --bind-to} units Weft honours. */
    private static final List<String> BINDINGS = List.of("core", "hwthread", "none");

    @Option(names = {"--map-by", "-map-by"}, paramLabel = "slot|node",
            description = "Place ranks by slot (fill each host in turn; the default) or by node (hosts in turn).")
    String mapBy = "slot";

    @Option(names = {"--bind-to", "-bind-to"}, paramLabel = "core|hwthread|none",
            description = "Bind each rank of a host to the next core (or hardware thread) it may use, or none. Default:"
                    + " on a host with as many ranks as CPUs, each rank's MPI thread to its core.")
    String bindTo = "auto";

    @Option(names = {"--display-map", "-display-map"}, description = "Print each rank's host before the job starts.")
    boolean displayMap;

    @Option(names = {"--report-bindings", "-report-bindings"}, description = "Each rank says where it is bound.")
    boolean reportBindings;

    @Option(names = {"--output-filename", "-output-filename"}, paramLabel = "DIR[:nocopy]",
            description = "Also write each rank's output to DIR/1/rank.N/stdout and stderr (only there with :nocopy).")
    String outputFilename;

    @Option(names = {"--names"}, paramLabel = "DIR", description = "Publish names (MPI_Publish_name) in DIR, where"
            + " every weftrun given the same DIR looks them up, as Open MPI's --ompi-server.")
    java.nio.file.Path names;

    @Option(names = {"-q", "--quiet"}, description = "Keep weftrun's warnings and notes to itself (not its errors).")
    boolean quiet;

    @Option(names = {"--mca", "-mca"}, arity = "2", paramLabel = "NAME VALUE", hideParamSyntax = true,
            description = "Open MPI's parameters, ignored with a warning (Weft's own: --param, weftrun --info).")
    List<String> mca = new ArrayList<>();

    /**
     * The files of {@code --output-filename} for a world of {@code np}, or {@code null} without it.
     *
     * @throws IllegalArgumentException for an option without a directory
     */
    OutputFiles outputFiles(int np) {
        return outputFilename == null ? null : OutputFiles.of(outputFilename, np);
    }

    /** The Weft parameters these options set: the ranks bind themselves ({@code org.weft.mm.affinity}). */
    Map<String, String> parameters() {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (!bindTo.equals("auto")) { // unset: each rank decides (CpuBinding); a unit not honoured: unbound
            parameters.put(CpuBinding.BIND_TO.name(), BINDINGS.contains(bindingUnit()) ? bindingUnit() : "none");
        }
        if (reportBindings) {
            parameters.put(CpuBinding.REPORT_BINDINGS.name(), "1");
        }
        return parameters;
    }

    /** {@code --bind-to core:overload-allowed} is {@code core}: more ranks than cores wrap around anyway. */
    private String bindingUnit() {
        int colon = bindTo.indexOf(':');
        return colon < 0 ? bindTo : bindTo.substring(0, colon);
    }

    /** The warnings this command line earns, each once. */
    List<String> warnings() {
        Map<String, String> warnings = new LinkedHashMap<>();
        if (!BINDINGS.contains(bindingUnit()) && !bindTo.equals("auto")) {
            warnings.put("bind-to", "--bind-to " + bindTo + ": Weft binds to core, hwthread or none (the ranks run"
                    + " unbound)");
        }
        for (int i = 0; i + 1 < mca.size(); i += 2) {
            warnings.putIfAbsent("mca", "--mca " + mca.get(i) + " " + mca.get(i + 1)
                    + ": Open MPI's parameters are ignored (Weft's: --param NAME=VALUE, weftrun --info)");
        }
        return List.copyOf(warnings.values());
    }

    /**
     * The slots in the order ranks take them: as given by slot; by node, one slot of each host in turn.
     *
     * @throws IllegalArgumentException for a mapping Weft does not know
     */
    List<String> mapped(List<String> slots) {
        switch (mapBy) {
            case "slot" -> {
                return slots;
            }
            case "node" -> {
                List<String> left = new ArrayList<>(slots);
                List<String> byNode = new ArrayList<>();
                while (!left.isEmpty()) {
                    for (String host : left.stream().distinct().toList()) {
                        left.remove(host);
                        byNode.add(host);
                    }
                }
                return byNode;
            }
            default -> throw new IllegalArgumentException("--map-by " + mapBy + ": Weft maps by slot or by node");
        }
    }

    /** {@code --display-map}: one line per rank, its host ({@code localhost} for this one). */
    void display(JobPlan plan, PrintStream out) {
        if (!displayMap) {
            return;
        }
        out.println("weftrun: map of " + plan.np() + " ranks");
        for (int rank = 0; rank < plan.np(); rank++) {
            String host = plan.hostOf(rank);
            out.println("  rank " + rank + " on " + (host.isEmpty() ? "localhost" : host));
        }
    }
}
