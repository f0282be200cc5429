package org.weft.launcher.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.weft.launcher.plan.RankCommands;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code weft}: the umbrella command. {@code weft run} is {@code weftrun}; {@code weft info} tells what this
 * installation is; {@code weft bench} is to come.
 */
@Command(name = "weft", mixinStandardHelpOptions = true, versionProvider = WeftVersion.class,
        description = "Weft, an MPI for Java.",
        subcommands = {Weft.Info.class, Weft.Bench.class})
public final class Weft implements Callable<Integer> {
    /** Exit status of a command that does not exist yet. */
    static final int NOT_YET = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args, System.in, System.out, System.err));
    }

    /** Runs {@code weft} with these arguments and streams; returns its exit status. */
    public static int execute(String[] args, InputStream in, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(new Weft());
        commandLine.addSubcommand("run", new WeftRun(System.getenv(), in, out, err));
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
            out.println("Java: " + Runtime.version() + " (" + System.getProperty("java.vendor") + ") at "
                    + System.getProperty("java.home"));
            out.println("Launcher jar: " + launcherLocation());
            out.println("Weft's runtime jars (appended to every rank's class path):");
            for (String entry : RankCommands.ofThisJvm().runtimeClassPath()) {
                out.println("  " + entry);
            }
            out.println("Ranks start with: " + RankCommands.NATIVE_ACCESS);
            return 0;
        }

        private static String launcherLocation() {
            try {
                return Path.of(Weft.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            } catch (URISyntaxException | RuntimeException e) {
                return "unknown";
            }
        }
    }

    /** {@code weft bench}: the benchmark suite, not there yet. */
    @Command(name = "bench", description = "Run Weft's benchmarks (not yet).")
    static final class Bench implements Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @CommandLine.Unmatched
        private java.util.List<String> ignored;

        @Override
        public Integer call() {
            spec.commandLine().getErr().println("weft bench: not yet");
            return NOT_YET;
        }
    }
}
