package org.weft.launcher.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.weft.adi.net.HostAddresses;
import org.weft.adi.param.Parameter;
import org.weft.adi.param.ParameterFile;
import org.weft.adi.param.Parameters;
import org.weft.launcher.job.JobDirectory;
import org.weft.launcher.plan.AotCache;
import org.weft.launcher.plan.RankCommands;
import org.weft.launcher.plan.SiteLayout;
import org.weft.launcher.slurm.SlurmAllocation;
import org.weft.launcher.slurm.Srun;
import org.weft.mm.ModuleCatalog;
import org.weft.mm.module.nativempi.NativeMpiModule;
import org.weft.mm.module.shm.HostIdentity;
import org.weft.mm.module.shm.ShmModule;
import org.weft.mm.module.shm.ShmParameters;
import org.weft.mm.module.tcp.TcpModule;
import org.weft.mm.select.MethodOrder;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.stats.MethodCounters;

/**
 * {@code weft info}: what Open MPI's {@code ompi_info} tells of an installation, for Weft: the version, the JDK,
 * this host, how ranks start, each communication method with whether a rank on this host could use it and why
 * not, and every parameter with its value and where that value comes from (ompi_info's "data source").
 */
final class WeftInfo {
    private static final String INDENT = "  ";

    private final PrintWriter out;
    private final Map<String, String> environment;

    WeftInfo(PrintWriter out, Map<String, String> environment) {
        this.out = out;
        this.environment = environment;
    }

    void print() {
        installation();
        launch();
        methods();
        parameters();
    }

    private void installation() {
        out.println("Weft " + WeftVersion.version());
        out.println(INDENT + WeftVersion.jdk());
        out.println(INDENT + "Host: " + HostIdentity.localName() + " (" + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + ", " + System.getProperty("os.arch") + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs)");
        Path launcher = Weft.Info.launcherPath();
        out.println(INDENT + "Launcher jar: " + (launcher == null ? "unknown" : launcher));
        out.println(INDENT + "Weft's runtime jars (first on every rank's class path, before the program's):");
        for (String entry : RankCommands.ofThisJvm().runtimeClassPath()) {
            out.println(INDENT + INDENT + entry);
        }
        out.println(INDENT + "Ranks start with: " + String.join(" ", RankCommands.WEFT_JVM_OPTIONS));
        AotCache cache = AotCache.of(environment);
        List<String> options = cache.jvmOptions(1);
        out.println(INDENT + "Ranks' AOT cache: " + (cache.directory() == null ? "none (not started by bin/weft)"
                : options.isEmpty() ? "not trained for these jars (bin/weft-aot-train)" : String.join(" ", options)));
    }

    /** How ranks on other hosts and native sites would start from here. */
    private void launch() {
        out.println("Launch:");
        Path mpirun = SiteLayout.findMpirun(environment.get("PATH"));
        out.println(INDENT + "Native sites (--site): " + (mpirun == null ? "no mpirun on the PATH: Weft starts their ranks"
                : "started by " + mpirun));
        String srun = Srun.find(environment.get("PATH"));
        String rsh = environment.get("WEFT_RSH");
        out.println(INDENT + "Other hosts: " + (rsh != null ? rsh + " (WEFT_RSH)" : "ssh, or srun inside a SLURM"
                + " allocation (" + (srun == null ? "no srun on the PATH" : srun) + ")"));
        try {
            SlurmAllocation slurm = SlurmAllocation.of(environment);
            if (slurm != null) {
                out.println(INDENT + "SLURM job " + slurm.jobId() + ": nodes " + slurm.nodes() + ", tasks "
                        + slurm.tasksPerNode() + (slurm.thisNode() == null ? "" : ", this node " + slurm.thisNode()));
            }
        } catch (IllegalArgumentException e) {
            out.println(INDENT + "SLURM: " + e.getMessage());
        }
    }

    /** Each method, as a rank of a job of two ranks on this host would find it. */
    private void methods() {
        out.println("Methods (default order " + String.join(",", MethodOrder.DEFAULT) + "; --methods changes it):");
        Parameters values = parameterValues(Map.of(ShmParameters.JOB_DIR.name(),
                JobDirectory.defaultBase().toString()));
        ModuleContext rank = probe(values);
        // tcp's classes load Netty, whose use of sun.misc.Unsafe the JDK warns about on stderr; this JVM sends nothing
        System.getProperties().putIfAbsent("io.netty.noUnsafe", "true");
        List<String> known = ModuleCatalog.known();
        for (String method : MethodOrder.DEFAULT) {
            String status;
            if (!known.contains(method)) {
                status = "not in this build";
            } else if (method.equals(NativeMpiModule.NAME)) {
                status = nativeMpi();
            } else {
                CommModule module = ModuleCatalog.create(List.of(method), true).getFirst();
                String cause = module.unavailabilityCause(rank);
                status = cause == null ? "available" + detail(method) : "not available: " + cause;
            }
            out.printf("%s%-10s %s%n", INDENT, method, status);
        }
    }

    private static String detail(String method) {
        if (method.equals(ShmModule.NAME)) {
            return " (job directories under " + JobDirectory.defaultBase() + ")";
        }
        if (method.equals(TcpModule.NAME)) {
            List<String> addresses = HostAddresses.nonLoopback();
            return " (started when the methods before it leave ranks unconnected; addresses: 127.0.0.1"
                    + (addresses.isEmpty() ? "" : ", " + String.join(", ", addresses)) + ")";
        }
        return "";
    }

    /** nativempi: only under a native launcher; which library each would give a rank here. */
    private static String nativeMpi() {
        StringBuilder status = new StringBuilder("only for ranks a native site's mpirun starts (--site); there:");
        NativeMpiModule.librariesOnThisHost().forEach((launcher, library) ->
                status.append("\n").append(INDENT).append(" ".repeat(11)).append("under ").append(launcher)
                        .append(": ").append(library));
        return status.toString();
    }

    /** Every parameter as ompi_info --all lists them: value, data source, default, unit, then what it does. */
    private void parameters() {
        out.println("Parameters (command line --param > environment > file " + ParameterFile.ENV
                + " > default):");
        List<Parameter<?>> all = new ArrayList<>(ModuleCatalog.parameters());
        all.addAll(AotCache.PARAMETERS);
        Parameters values = parameterValues(Map.of());
        Map<String, String> file = ParameterFile.read(ParameterFile.location(environment));
        for (Parameter<?> p : all) {
            String value;
            try {
                value = String.valueOf(values.get(p));
            } catch (IllegalArgumentException e) {
                value = "invalid: " + e.getMessage();
            }
            String source = environment.containsKey(p.environmentName()) ? "environment " + p.environmentName()
                    : file.containsKey(p.name()) ? "file " + ParameterFile.location(environment) : "default";
            out.println(INDENT + "parameter \"" + p.name() + "\" (current value: \"" + value + "\", data source: "
                    + source + ", default: \"" + p.defaultValue() + "\"" + (p.unit().isEmpty() ? "" : ", unit: "
                    + p.unit()) + ")");
            out.println(INDENT + INDENT + INDENT + p.doc());
        }
    }

    private Parameters parameterValues(Map<String, String> explicit) {
        return new Parameters(explicit, environment, ParameterFile.read(ParameterFile.location(environment)));
    }

    /** A rank of two on this host, as far as a module's availability goes (nothing is started). */
    private static ModuleContext probe(Parameters parameters) {
        String host = HostIdentity.localName();
        return new ModuleContext() {
            @Override
            public int rank() {
                return 0;
            }

            @Override
            public int size() {
                return 2;
            }

            @Override
            public String jobId() {
                return "weft-info";
            }

            @Override
            public String secret() {
                return "";
            }

            @Override
            public String hostName() {
                return host;
            }

            @Override
            public Parameters parameters() {
                return parameters;
            }

            @Override
            public RsrSink inbound() {
                throw new UnsupportedOperationException("weft info starts no module");
            }

            @Override
            public MethodCounters counters() {
                throw new UnsupportedOperationException("weft info starts no module");
            }
        };
    }
}
