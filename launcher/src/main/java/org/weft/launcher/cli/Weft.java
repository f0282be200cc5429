package org.weft.launcher.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.weft.launcher.plan.AotCache;
import org.weft.launcher.plan.RankCommands;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code weft}: the umbrella command. {@code weft run} is {@code weftrun}; {@code weft info} tells what this
 * installation is; {@code weft bench} runs a benchmark of the suite (see {@link Bench}).
 */
@Command(name = "weft", mixinStandardHelpOptions = true, versionProvider = WeftVersion.class,
        description = "Weft, an MPI for Java.",
        subcommands = {Weft.Info.class})
public final class Weft implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args, System.in, System.out, System.err));
    }

    /** Runs {@code weft} with these arguments and streams; returns its exit status. */
    public static int execute(String[] args, InputStream in, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(new Weft());
        commandLine.addSubcommand("run", new WeftRun(System.getenv(), in, out, err));
        commandLine.addSubcommand("bench", new Bench(System.getenv(), in, out, err));
        WeftRun.configure(commandLine, out, err); // applies to the subcommands too
        return commandLine.execute(args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    /** {@code weft info}: version, JDK, and where Weft's jars are. */
    @Command(name = "info", mixinStandardHelpOptions = true, description = "Show Weft's version, JDK and jars.")
    static final class Info implements Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            var out = spec.commandLine().getOut();
            out.println("Weft " + WeftVersion.version());
            out.println(WeftVersion.jdk());
            out.println("Launcher jar: " + launcherLocation());
            out.println("Weft's runtime jars (first on every rank's class path, before the program's):");
            for (String entry : RankCommands.ofThisJvm().runtimeClassPath()) {
                out.println("  " + entry);
            }
            out.println("Ranks start with: " + String.join(" ", RankCommands.WEFT_JVM_OPTIONS));
            AotCache cache = AotCache.of(System.getenv());
            List<String> options = cache.jvmOptions(1);
            out.println("Ranks' AOT cache: " + (cache.directory() == null ? "none (not started by bin/weft)"
                    : options.isEmpty() ? "not trained for these jars (bin/weft-aot-train)" : String.join(" ", options)));
            return 0;
        }

        private static String launcherLocation() {
            Path path = launcherPath();
            return path == null ? "unknown" : path.toString();
        }

        /** The launcher's jar (or classes directory), or {@code null} when it cannot be told. */
        static Path launcherPath() {
            try {
                return Path.of(Weft.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (URISyntaxException | RuntimeException e) {
                return null;
            }
        }
    }
}
