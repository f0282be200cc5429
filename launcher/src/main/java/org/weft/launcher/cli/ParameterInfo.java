package org.weft.launcher.cli;

import org.weft.adi.param.Parameter;
import org.weft.adi.param.Parameters;
import org.weft.launcher.plan.AotCache;
import org.weft.mm.ModuleCatalog;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code weftrun --info}: every declared parameter with its name, value, default, unit and documentation, after
 * Open MPI's {@code ompi_info --all}. The value is what a rank of this command line would see: the command line
 * over the environment over the default.
 */
final class ParameterInfo {
    private ParameterInfo() {
    }

    static void print(PrintStream out, Map<String, String> environment, Map<String, String> commandLine) {
        Parameters values = new Parameters(commandLine, environment);
        List<Parameter<?>> all = new ArrayList<>(ModuleCatalog.parameters());
        all.addAll(AotCache.PARAMETERS);
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"parameter", "value", "default", "unit", "what it does"});
        for (Parameter<?> p : all) {
            rows.add(new String[] {p.name(), String.valueOf(values.get(p)), String.valueOf(p.defaultValue()), p.unit(),
                p.doc() + " (env " + p.environmentName() + ")"});
        }
        // columns as wide as their widest cell: a long value (methods) or name no longer shifts its row
        int[] widths = new int[4];
        for (String[] row : rows) {
            for (int column = 0; column < widths.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        String format = "%-" + widths[0] + "s  %-" + widths[1] + "s  %-" + widths[2] + "s  %-" + widths[3] + "s  %s%n";
        for (String[] row : rows) {
            out.printf(format, (Object[]) row);
        }
    }
}
