package org.weft.launcher.cli;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.weft.launcher.plan.AppContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The options of one app context after the first, as {@code mpirun}'s MPMD form has them
 * ({@code weftrun -np 2 -cp a.jar Ocean : -np 2 -cp b.jar Atmosphere}), and as one line of an appfile would: how
 * many ranks, the class path, {@code -jar}, JVM options, variables of its own, then the program (a main class, a
 * jar, or a {@code java} command line) and its arguments. {@link #program} turns any app context's words, the first
 * one's included, into an {@link AppContext}.
 */
@Command(name = "app-context")
final class AppContextOptions {
    /** The word that separates app contexts on the command line, as in mpirun. */
    static final String SEPARATOR = ":";

    @Option(names = {"-np", "-n", "--np"}, paramLabel = "N")
    int np;

    @Option(names = {"-cp", "-classpath", "--class-path"}, paramLabel = "CLASSPATH")
    String classPath;

    @Option(names = "-jar")
    boolean jar;

    @Option(names = {"-J", "--jvm-arg"}, paramLabel = "ARG")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "-x", paramLabel = "NAME[=VALUE]")
    List<String> exports = new ArrayList<>();

    @Parameters(arity = "0..*")
    List<String> program = new ArrayList<>();

    /** Splits a command line's words after the first main class at each {@code :}; the first part is the first's. */
    static List<List<String>> split(List<String> words) {
        List<List<String>> parts = new ArrayList<>();
        List<String> part = new ArrayList<>();
        for (String word : words) {
            if (word.equals(SEPARATOR)) {
                parts.add(part);
                part = new ArrayList<>();
            } else {
                part.add(word);
            }
        }
        parts.add(part);
        return parts;
    }

    /**
     * Parses one app context's words ({@code -np N [-cp CP] [-J ARG] [-x VAR[=VALUE]] MAIN|-jar JAR|java ... ARGS});
     * {@code launcherEnvironment} gives {@code -x VAR}'s value and the default class path, {@code warn} hears of a
     * variable that is not set. Mistakes are {@link IllegalArgumentException}s naming the context.
     */
    static AppContext parse(List<String> words, int appNum, Map<String, String> launcherEnvironment,
                            Consumer<String> warn) {
        AppContextOptions options = new AppContextOptions();
        try {
            new CommandLine(options).setStopAtPositional(true).setExpandAtFiles(false)
                    .parseArgs(words.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException("app context " + appNum + ": " + e.getMessage());
        }
        if (options.np < 1) {
            throw new IllegalArgumentException("app context " + appNum + " (" + String.join(" ", words)
                    + "): give its number of ranks, -np N with N at least 1");
        }
        Map<String, String> environment = exports(options.exports, launcherEnvironment, warn);
        return program(options.np, options.classPath, options.jar, options.jvmArgs, options.program, environment,
                launcherEnvironment, "app context " + appNum);
    }

    /**
     * The app context running {@code program} (a main class or, with {@code jar}, a jar, each followed by the
     * program's arguments; or a {@code java} command line, whose class path, {@code -jar} and options count as
     * given here) on {@code np} ranks. Without a class path: {@code $CLASSPATH}, else the current directory.
     */
    static AppContext program(int np, String classPath, boolean jar, List<String> jvmArgs, List<String> program,
                              Map<String, String> environment, Map<String, String> launcherEnvironment,
                              String where) {
        List<String> words = program;
        List<String> jvmOptions = new ArrayList<>(jvmArgs);
        if (!jar && !words.isEmpty() && JavaCommand.isJava(words.getFirst())) {
            JavaCommand java = JavaCommand.parse(words);
            classPath = java.classPath() != null ? java.classPath() : classPath;
            jar = java.jar();
            jvmOptions.addAll(java.jvmOptions());
            words = java.program();
        }
        if (words.isEmpty()) {
            throw new IllegalArgumentException(where + ": " + (jar ? "-jar needs a jar file"
                    : "missing MAIN (the main class) or -jar APP.jar"));
        }
        List<String> entries = new ArrayList<>();
        String mainClass = jar ? mainClassOf(words.getFirst()) : words.getFirst();
        if (jar) {
            entries.add(words.getFirst());
        }
        String userClassPath = classPath != null ? classPath
                : jar ? null : launcherEnvironment.getOrDefault("CLASSPATH", ".");
        if (userClassPath != null) {
            for (String entry : userClassPath.split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    entries.add(entry);
                }
            }
        }
        return new AppContext(np, entries, mainClass, words.subList(1, words.size()), jvmOptions, environment);
    }

    /** The variables of {@code -x NAME=VALUE} and {@code -x NAME} (its value in the launcher's environment). */
    static Map<String, String> exports(List<String> exports, Map<String, String> launcherEnvironment,
                                       Consumer<String> warn) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (String export : exports) {
            int eq = export.indexOf('=');
            if (eq == 0) {
                throw new IllegalArgumentException("-x " + export + ": no variable name");
            }
            if (eq > 0) {
                environment.put(export.substring(0, eq), export.substring(eq + 1));
            } else if (launcherEnvironment.containsKey(export)) {
                environment.put(export, launcherEnvironment.get(export));
            } else {
                warn.accept("-x " + export + ": not set here, so not exported");
            }
        }
        return environment;
    }

    /** The Main-Class of a jar's manifest. */
    static String mainClassOf(String jarPath) {
        try (JarFile jarFile = new JarFile(jarPath)) {
            Manifest manifest = jarFile.getManifest();
            String main = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null || main.isBlank()) {
                throw new IllegalArgumentException(jarPath + " has no Main-Class in its manifest");
            }
            return main.trim();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the jar " + jarPath + ": " + e.getMessage());
        }
    }
}
