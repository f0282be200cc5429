package org.weft.launcher.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A program given as a {@code java} command line, as Open MPI's Java users have always started programs
 * ({@code mpirun -np 2 java -cp out Hello}): its class path, {@code -jar}, its other JVM options (which the ranks
 * take, as with {@code -J}), then the main class or jar and the program's arguments. The ranks run on the JDK that
 * {@code weftrun} found, whatever {@code java} names.
 */
record JavaCommand(String classPath, boolean jar, List<String> jvmOptions, List<String> program) {
    /** The java launcher's options whose value is the next word. */
    private static final Set<String> WITH_VALUE = Set.of("-p", "--module-path", "--upgrade-module-path",
            "--add-modules", "--limit-modules", "--add-reads", "--add-exports", "--add-opens", "--patch-module",
            "--enable-native-access");

    /** True when {@code word}, the first word of the program, names the java launcher. */
    static boolean isJava(String word) {
        return word.equals("java") || word.endsWith("/java");
    }

    /**
     * Parses {@code words} ({@code java} first) the way the java launcher does: options up to the main class or
     * the jar after {@code -jar}, everything after that the program's.
     *
     * @throws IllegalArgumentException for a command with no main class, or one that runs a module
     */
    static JavaCommand parse(List<String> words) {
        String classPath = null;
        boolean jar = false;
        List<String> options = new ArrayList<>();
        int i = 1;
        while (i < words.size() && words.get(i).startsWith("-") && !jar) {
            String word = words.get(i++);
            switch (word) {
                case "-cp", "-classpath", "--class-path" -> classPath = value(words, i++, word);
                case "-jar" -> jar = true;
                case "-m", "--module" -> throw new IllegalArgumentException(
                        "java " + word + ": weftrun runs programs from a class path or a jar, not modules");
                default -> {
                    if (word.startsWith("--class-path=")) {
                        classPath = word.substring("--class-path=".length());
                    } else {
                        options.add(word);
                        if (WITH_VALUE.contains(word)) {
                            options.add(value(words, i++, word));
                        }
                    }
                }
            }
        }
        if (i >= words.size()) {
            throw new IllegalArgumentException(jar ? "java -jar needs a jar file" : "java: missing the main class");
        }
        return new JavaCommand(classPath, jar, options, List.copyOf(words.subList(i, words.size())));
    }

    private static String value(List<String> words, int index, String option) {
        if (index >= words.size()) {
            throw new IllegalArgumentException("java " + option + " needs a value");
        }
        return words.get(index);
    }
}
