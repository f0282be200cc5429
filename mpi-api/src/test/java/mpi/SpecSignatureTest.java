package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Checks every class, field, constructor and method of Open MPI's Java bindings (the spec files
 * {@code openmpi-java-api.txt}, the public API, and {@code openmpi-java-api-protected.txt}, the protected members
 * that subclasses of {@code Struct} and {@code Struct.Data} call; copies of {@code shared/spec}) against the
 * compiled {@code mpi} package by reflection: names, parameter and return types (a type variable stands for its
 * bound), {@code throws}, public/protected/static/final/abstract and the class hierarchy. {@code native} in the
 * spec is ignored (Weft's methods are plain Java). Missing members are listed in {@code target/<spec>-missing.txt}.
 */
class SpecSignatureTest {
    private static final Pattern CLASS = Pattern.compile(
            "^((?:public |abstract |final )*)(class|interface) ([\\w.$]+)(?: extends ([\\w.$]+))?"
                    + "(?: implements ([\\w.$,]+))? \\{$");
    private static final Pattern METHOD = Pattern.compile(
            "^((?:public |protected |static |final |abstract |native |synchronized )*)(?:<([^>]+)> )?"
                    + "(?:([\\w.$\\[\\]]+) )?([\\w.$]+)\\(([^)]*)\\)(?: throws ([\\w.$, ]+))?;$");
    /** One type variable of a generic method, e.g. {@code S extends mpi.Struct}. */
    private static final Pattern TYPE_VARIABLE = Pattern.compile("(\\w+) extends ([\\w.$]+)");
    private static final Pattern FIELD = Pattern.compile(
            "^((?:public |protected |static |final )*)([\\w.$\\[\\]]+) (\\w+);$");

    @ParameterizedTest
    @CsvSource({"openmpi-java-api.txt, 700", "openmpi-java-api-protected.txt, 30"})
    void everyMemberOfTheSpecExistsWithItsModifiers(String spec, int fewestMembers) throws IOException {
        List<String> problems = new ArrayList<>();
        Class<?> current = null;
        String currentLine = null;
        int members = 0;
        for (String raw : specLines(spec)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.equals("}")) {
                continue;
            }
            Matcher c = CLASS.matcher(line);
            if (c.matches()) {
                currentLine = line;
                current = checkClass(c, problems);
                continue;
            }
            if (current == null) {
                problems.add("(class missing for) " + currentLine + " :: " + line);
                continue;
            }
            members++;
            Matcher m = METHOD.matcher(line);
            Matcher f = FIELD.matcher(line);
            String problem;
            if (m.matches()) {
                problem = checkExecutable(current, m);
            } else if (f.matches()) {
                problem = checkField(current, f);
            } else {
                problem = "unparsed";
            }
            if (problem != null) {
                problems.add(current.getName() + " :: " + line + "   <-- " + problem);
            }
        }
        Path report = Path.of("target", spec.replace(".txt", "-missing.txt"));
        Files.createDirectories(report.getParent());
        Files.write(report, problems);
        assertTrue(members > fewestMembers, spec + " parsed to only " + members + " members");
        assertTrue(problems.isEmpty(), problems.size() + " spec members missing or different:\n"
                + String.join("\n", problems));
    }

    private static List<String> specLines(String spec) throws IOException {
        try (InputStream in = SpecSignatureTest.class.getResourceAsStream("/" + spec)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private static Class<?> checkClass(Matcher c, List<String> problems) {
        String name = c.group(3);
        Class<?> type;
        try {
            type = Class.forName(name);
        } catch (ClassNotFoundException e) {
            problems.add("missing class " + name);
            return null;
        }
        Set<String> words = Set.of(c.group(1).split(" "));
        int mod = type.getModifiers();
        expect(problems, name, "public", words.contains("public"), Modifier.isPublic(mod));
        expect(problems, name, "final", words.contains("final"), Modifier.isFinal(mod));
        expect(problems, name, "interface", c.group(2).equals("interface"), type.isInterface());
        if (!type.isInterface()) {
            expect(problems, name, "abstract", words.contains("abstract"), Modifier.isAbstract(mod));
        }
        if (c.group(4) != null && !c.group(4).equals(type.getSuperclass().getName())) {
            problems.add(name + " extends " + type.getSuperclass().getName() + ", spec says " + c.group(4));
        }
        if (c.group(5) != null) {
            Set<String> actual = new TreeSet<>();
            Arrays.stream(type.getInterfaces()).forEach(i -> actual.add(i.getName()));
            for (String i : c.group(5).split(",")) {
                if (!actual.contains(i)) {
                    problems.add(name + " does not implement " + i);
                }
            }
        }
        return type;
    }

    private static void expect(List<String> problems, String name, String what, boolean spec, boolean actual) {
        if (spec != actual) {
            problems.add(name + ": " + what + " is " + actual + ", spec says " + spec);
        }
    }

    private static String checkField(Class<?> type, Matcher f) {
        Field field;
        try {
            field = type.getDeclaredField(f.group(3));
        } catch (NoSuchFieldException e) {
            return "missing field";
        }
        if (!typeName(field.getType()).equals(f.group(2))) {
            return "field type " + typeName(field.getType());
        }
        return modifiers(f.group(1), field.getModifiers(), false);
    }

    private static String checkExecutable(Class<?> type, Matcher m) {
        Map<String, String> bounds = typeVariables(m.group(2));
        String name = m.group(4);
        String[] params = m.group(5).isEmpty() ? new String[0] : m.group(5).split(", ?");
        params = Arrays.stream(params).map(p -> bounds.getOrDefault(p, p)).toArray(String[]::new);
        boolean constructor = m.group(3) == null;
        Executable found = null;
        for (Executable e : constructor ? type.getDeclaredConstructors() : type.getDeclaredMethods()) {
            boolean sameName = constructor ? name.equals(type.getName()) : e.getName().equals(name);
            if (!sameName || !sameParameters(e, params)) {
                continue;
            }
            if (e instanceof Method method) {
                String returns = bounds.getOrDefault(m.group(3), m.group(3));
                if (!typeName(method.getReturnType()).equals(returns)) {
                    continue;
                }
            }
            found = e;
        }
        if (found == null) {
            return "missing";
        }
        Set<String> declared = new TreeSet<>();
        for (Class<?> t : found.getExceptionTypes()) {
            declared.add(t.getName());
        }
        Set<String> spec = new TreeSet<>();
        if (m.group(6) != null) {
            spec.addAll(Arrays.asList(m.group(6).split(", ?")));
        }
        boolean bridge = found instanceof Method method && method.isBridge();
        if (!declared.equals(spec) && !bridge) {
            return "throws " + declared;
        }
        return modifiers(m.group(1), found.getModifiers(), bridge);
    }

    /** The bound of each type variable of a generic method ({@code <T extends X, ...>}): its erasure. */
    private static Map<String, String> typeVariables(String declaration) {
        Map<String, String> bounds = new HashMap<>();
        if (declaration != null) {
            Matcher v = TYPE_VARIABLE.matcher(declaration);
            while (v.find()) {
                bounds.put(v.group(1), v.group(2));
            }
        }
        return bounds;
    }

    private static boolean sameParameters(Executable e, String[] params) {
        Class<?>[] actual = e.getParameterTypes();
        // inner classes' constructors take their outer instance first, as the spec shows
        if (actual.length != params.length) {
            return false;
        }
        for (int i = 0; i < params.length; i++) {
            if (!typeName(actual[i]).equals(params[i])) {
                return false;
            }
        }
        return true;
    }

    private static String modifiers(String specWords, int mod, boolean bridge) {
        Set<String> words = Set.of(specWords.strip().split(" "));
        Map<String, Boolean> actual = Map.of("public", Modifier.isPublic(mod), "static", Modifier.isStatic(mod),
                "final", Modifier.isFinal(mod), "abstract", Modifier.isAbstract(mod),
                "protected", Modifier.isProtected(mod));
        for (var e : actual.entrySet()) {
            if (bridge && e.getKey().equals("final")) {
                continue;
            }
            if (words.contains(e.getKey()) != e.getValue()) {
                return e.getKey() + " is " + e.getValue();
            }
        }
        return null;
    }

    private static String typeName(Class<?> type) {
        return type.isArray() ? typeName(type.getComponentType()) + "[]" : type.getName();
    }
}
