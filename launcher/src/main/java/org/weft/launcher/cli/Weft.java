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

    /** {@code weft info}: what ompi_info tells (see {@link WeftInfo}). */
    @Command(name = "info", mixinStandardHelpOptions = true,
            description = "Show Weft's version, JDK, jars, methods available on this host, and every parameter.")
    static final class Info implements Callable<Integer> {
        @CommandLine.Spec
        private CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            new WeftInfo(spec.commandLine().getOut(), System.getenv()).print();
            return 0;
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
