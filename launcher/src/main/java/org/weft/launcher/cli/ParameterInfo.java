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
        out.printf("%-24s %-14s %-14s %-8s %s%n", "parameter", "value", "default", "unit", "what it does");
        List<Parameter<?>> all = new ArrayList<>(ModuleCatalog.parameters());
        all.addAll(AotCache.PARAMETERS);
        for (Parameter<?> p : all) {
            out.printf("%-24s %-14s %-14s %-8s %s (env %s)%n", p.name(), values.get(p), p.defaultValue(), p.unit(),
                    p.doc(), p.environmentName());
        }
    }
}
