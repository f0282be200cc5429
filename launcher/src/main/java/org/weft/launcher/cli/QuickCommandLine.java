package org.weft.launcher.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the command lines most {@code weftrun}s get without picocli, into the same fields of {@link WeftRun}. Why:
 * picocli builds its model of weftrun's options from their annotations (reflection, annotation proxies the JDK's AOT
 * cache cannot hold), ~0.1–0.2 s of the launcher's CPU per job on a machine whose two cores start the ranks' JVMs at
 * the same time (issue 20, item 12).
 *
 * <p>A command line is taken only when every word before MAIN is one of {@link #NAMES}'s options in its plain form
 * ({@code NAME VALUE}, a single-valued option or flag at most once, an integer as plain digits) with a value picocli
 * would take as one (see {@link #isOption}); anything else — help, version, the other options, {@code NAME=VALUE},
 * {@code -J-ea}, clustered short options, {@code --} — goes to picocli, which then reads the whole line as before.
 * The first word that does not start with {@code -} is MAIN: it and everything after it are the program's, as with
 * picocli's stop at the first positional. {@code QuickCommandLineTest} checks that a line taken here fills every
 * field as picocli does.
 */
final class QuickCommandLine {
    /**
     * Every option name of {@code weftrun} (picocli's, which decides whether a word is an option or a value; the test
     * compares the two lists).
     */
    static final Set<String> ALL_NAMES = Set.of("-np", "-n", "--np", "-cp", "-classpath", "--class-path", "-jar",
            "--site", "--hostfile", "-hostfile", "--machinefile", "--app", "-app", "-H", "--host", "-npernode",
            "--npernode", "-N", "--map-by", "-map-by", "--bind-to", "-bind-to", "--display-map", "-display-map",
            "--report-bindings", "-report-bindings", "--output-filename", "-output-filename", "--names", "-q",
            "--quiet", "--mca", "-mca", "--jfr", "--jfr-dir", "--oversubscribe", "--rsh", "--site-launcher", "--relay",
            "--tag-output", "--timeout", "-x", "--param", "--path", "--methods", "--report", "--info", "-J",
            "--jvm-arg", "-h", "--help", "-V", "--version");
    /** The letters of the one-letter options ({@code -n}): picocli takes {@code -nVALUE} for an option. */
    static final String SHORT_LETTERS = "nHNqxJhV";

    private QuickCommandLine() {
    }

    /** The options read here, by each of their names: the canonical name (the field) of each. */
    static String canonical(String word) {
        return switch (word) {
            case "-np", "-n", "--np" -> "-np";
            case "-cp", "-classpath", "--class-path" -> "-cp";
            case "-jar" -> "-jar";
            case "-H", "--host" -> "--host";
            case "--hostfile", "-hostfile", "--machinefile" -> "--hostfile";
            case "--oversubscribe" -> "--oversubscribe";
            case "--tag-output" -> "--tag-output";
            case "--timeout" -> "--timeout";
            case "-x" -> "-x";
            case "--param" -> "--param";
            case "--methods" -> "--methods";
            case "--report" -> "--report";
            case "-q", "--quiet" -> "-q";
            case "-J", "--jvm-arg" -> "-J";
            default -> null;
        };
    }

    private static boolean isFlag(String option) {
        return switch (option) {
            case "-jar", "--oversubscribe", "--tag-output", "--report", "-q" -> true;
            default -> false;
        };
    }

    private static boolean isRepeatable(String option) {
        return switch (option) {
            case "-x", "--param", "-J" -> true;
            default -> false;
        };
    }

    /**
     * Reads {@code args} into {@code command}'s fields and returns true; or returns false, having set nothing, when
     * the line is not one of the common ones.
     */
    static boolean read(String[] args, WeftRun command) {
        int main = mainIndex(args);
        if (main < 0) {
            return false;
        }
        for (int i = 0; i < main; i++) {
            String option = canonical(args[i]);
            if (isFlag(option)) {
                setFlag(command, option);
            } else {
                setValue(command, option, args[++i]);
            }
        }
        command.program = new ArrayList<>(List.of(args).subList(main, args.length));
        return true;
    }

    /** Where MAIN is in a line read here (its length without MAIN), or -1 for a line left to picocli. */
    private static int mainIndex(String[] args) {
        Set<String> seen = new HashSet<>();
        int i = 0;
        for (; i < args.length && args[i].startsWith("-"); i++) {
            String option = canonical(args[i]);
            if (option == null || !seen.add(option) && !isRepeatable(option)) {
                return -1;
            }
            if (!isFlag(option) && (i + 1 == args.length || isOption(args[i + 1]) || !isValue(option, args[++i]))) {
                return -1;
            }
        }
        return i;
    }

    private static void setFlag(WeftRun command, String option) {
        switch (option) {
            case "-jar" -> command.jar = true;
            case "--oversubscribe" -> command.oversubscribe = true;
            case "--tag-output" -> command.tagOutput = true;
            case "--report" -> command.report = true;
            case "-q" -> command.mpirun.quiet = true;
            default -> throw new IllegalArgumentException(option);
        }
    }

    /** Whether {@code value} is read here for {@code option}: a number as plain digits that fit. */
    private static boolean isValue(String option, String value) {
        return switch (option) {
            case "-np" -> isDigits(value, 9);
            case "--timeout" -> isDigits(value, 18);
            default -> true;
        };
    }

    private static void setValue(WeftRun command, String option, String value) {
        switch (option) {
            case "-np" -> command.np = Integer.parseInt(value);
            case "--timeout" -> command.timeoutSeconds = Long.parseLong(value);
            case "-cp" -> command.classPath = value;
            case "--host" -> command.hosts = value;
            case "--hostfile" -> command.hostfile = Path.of(value);
            case "--methods" -> command.methods = value;
            case "-x" -> command.exports.add(value);
            case "--param" -> command.params.add(value);
            case "-J" -> command.jvmArgs.add(value);
            default -> throw new IllegalArgumentException(option);
        }
    }

    private static boolean isDigits(String value, int maxLength) {
        if (value.isEmpty() || value.length() > maxLength) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether picocli would take {@code word} for an option rather than for the value of the option before it: the
     * end-of-options {@code --}, an option's name, an option's name and {@code =}, or a one-letter option with
     * something attached ({@code -xFOO}). Other words starting with {@code -} ({@code -Xmx1g}) are values.
     */
    static boolean isOption(String word) {
        int eq = word.indexOf('=');
        return word.equals("--") || ALL_NAMES.contains(word) || eq > 0 && ALL_NAMES.contains(word.substring(0, eq))
                || word.length() > 2 && word.charAt(0) == '-' && SHORT_LETTERS.indexOf(word.charAt(1)) >= 0;
    }
}
