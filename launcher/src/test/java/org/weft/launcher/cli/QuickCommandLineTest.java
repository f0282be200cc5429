package org.weft.launcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * weftrun's common command lines read without picocli ({@link QuickCommandLine}) give every field the value picocli
 * gives it, and the lines it leaves to picocli are left whole; mistakes are reported as picocli reports them.
 */
class QuickCommandLineTest {
    private static final PrintStream DISCARD = new PrintStream(OutputStream.nullOutputStream());

    private static WeftRun command() {
        return new WeftRun(Map.of("CLASSPATH", "env.jar"), InputStream.nullInputStream(), DISCARD, DISCARD);
    }

    /** Every option and parameter field of weftrun (its mixins' too) and its value, by name. */
    private static Map<String, Object> fields(WeftRun command) throws IllegalAccessException {
        Map<String, Object> values = new LinkedHashMap<>();
        collect(command, values, "");
        return values;
    }

    private static void collect(Object object, Map<String, Object> values, String prefix)
            throws IllegalAccessException {
        for (Field field : object.getClass().getDeclaredFields()) {
            field.setAccessible(true);
            if (field.isAnnotationPresent(CommandLine.Mixin.class)) {
                collect(field.get(object), values, prefix + field.getName() + ".");
            } else if (field.isAnnotationPresent(CommandLine.Option.class)
                    || field.isAnnotationPresent(CommandLine.Parameters.class)) {
                values.put(prefix + field.getName(), field.get(object));
            }
        }
    }

    /** Reads {@code args} both ways; returns whether the quick reader took it (then both agree, or this fails). */
    private static boolean sameAsPicocli(String... args) throws IllegalAccessException {
        WeftRun quick = command();
        if (!QuickCommandLine.read(args, quick)) {
            assertEquals(fields(command()), fields(quick), "a line left to picocli sets nothing: " + List.of(args));
            return false;
        }
        WeftRun picocli = command();
        try {
            WeftRun.commandLine(picocli, DISCARD, DISCARD).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            fail("read quickly, but picocli refuses " + List.of(args) + ": " + e.getMessage());
        }
        assertEquals(fields(picocli), fields(quick), "fields of " + List.of(args));
        return true;
    }

    @Test
    void theOptionNamesArePicoclis() {
        CommandSpec spec = WeftRun.commandSpec();
        assertEquals(new TreeSet<>(spec.optionsMap().keySet()), new TreeSet<>(QuickCommandLine.ALL_NAMES));
        assertEquals(spec.posixOptionsMap().keySet().stream().map(String::valueOf).collect(Collectors.toSet()),
                QuickCommandLine.SHORT_LETTERS.chars().mapToObj(c -> String.valueOf((char) c))
                        .collect(Collectors.toSet()));
        for (OptionSpec option : spec.options()) { // an option read quickly is read by each of its names, alone
            Set<String> quickly = Arrays.stream(option.names()).map(QuickCommandLine::canonical)
                    .collect(Collectors.toSet());
            assertEquals(1, quickly.size(), Arrays.toString(option.names()));
            String canonical = quickly.iterator().next();
            if (canonical != null) {
                Set<String> sameCanonical = QuickCommandLine.ALL_NAMES.stream()
                        .filter(name -> canonical.equals(QuickCommandLine.canonical(name))).collect(Collectors.toSet());
                assertEquals(Set.of(option.names()), sameCanonical);
                assertEquals(option.arity().max == 0, option.typeInfo().isBoolean(), canonical);
            }
        }
    }

    @Test
    void commonLinesAreReadQuicklyAsPicocliReadsThem() throws IllegalAccessException {
        assertTrue(sameAsPicocli("-np", "4", "-cp", "examples/target/classes", "Hello"));
        assertTrue(sameAsPicocli("--timeout", "300", "-np", "2", "-cp", "", "org.weft.launcher.aot.AotTraining", ":",
                "-np", "1", "-x", "WEFT_HOST=weft-aot-other-host", "-cp", "", "org.weft.launcher.aot.AotTraining"));
        assertTrue(sameAsPicocli("-n", "2", "--tag-output", "--timeout", "7", "-x", "A=1=2", "-x", "HOME",
                "--param", "tcp_eager_limit=64k", "--methods", "tcp", "--report", "-J", "-Xmx64m", "--jvm-arg",
                "-Dfoo=bar", "-J", "-ea", "--class-path", "lib/x.jar", "-q", "--oversubscribe", "Main", "-np", "5",
                "--", "-J"));
        assertTrue(sameAsPicocli("-H", "a:2,b", "--hostfile", "hosts", "-jar", "app.jar", "x"));
        assertTrue(sameAsPicocli("-np", "2", "java", "-Xmx1g", "-cp", "x", "Main"));
        assertTrue(sameAsPicocli("-np", "2", "-J", "-", "Main"));
        assertTrue(sameAsPicocli());
    }

    @Test
    void otherLinesAreLeftWholeToPicocli() throws IllegalAccessException {
        for (String[] line : List.of(new String[] {"--help"}, new String[] {"-np", "2", "--site", "a:2", "M"},
                new String[] {"--np=2", "M"}, new String[] {"-np", "2", "-J-ea", "M"}, new String[] {"-np", "2", "--", "M"},
                new String[] {"-np", "2", "-np", "3", "M"}, new String[] {"-np", "+2", "M"},
                new String[] {"-np", "2", "-J", "-np", "M"}, new String[] {"-np", "2", "-x", "-nope", "M"},
                new String[] {"-np", "2", "-J", "--param=a=b", "M"}, new String[] {"-np"},
                new String[] {"--report", "--report", "M"}, new String[] {"-qx", "A", "M"})) {
            assertFalse(sameAsPicocli(line), List.of(line).toString());
        }
    }

    /** Random lines over words that trip parsers: whatever the quick reader takes, picocli reads the same way. */
    @Test
    void randomLinesAreReadAsPicocliReadsThem() throws IllegalAccessException {
        List<String> words = new ArrayList<>(QuickCommandLine.ALL_NAMES);
        words.addAll(List.of("2", "0", "-1", "08", "1x", "99999999999", "x", "Main", "a.jar", "-Xmx64m", "-ea", "-J-ea",
                "-np4", "--np=3", "A=1", "tcp", "--", "-", ":", "", "java", "@f", "true", "--param=a=b", "-D", "-Dx=1",
                "-cpx", "--nope", "-Z", "-xA", "-H=h"));
        Random random = new Random(20); // a fixed seed: the same lines in every run
        int quick = 0;
        for (int line = 0; line < 2000; line++) {
            String[] args = new String[random.nextInt(9)];
            for (int i = 0; i < args.length; i++) {
                args[i] = words.get(random.nextInt(words.size()));
            }
            if (sameAsPicocli(args)) {
                quick++;
            }
        }
        assertTrue(quick > 100, quick + " of 2000 random lines read quickly"); // the comparison compared something
    }

    @Test
    void mistakesInALineReadQuicklyAreReportedAsPicocliReportsThem() {
        for (String[] line : List.of(new String[] {"-np", "0", "Main"}, new String[] {"-np", "2"},
                new String[] {"-np", "2", "--timeout", "0", "Main"}, new String[] {"-np", "2", "--param", "nope=1", "M"},
                new String[] {"Main"}, new String[] {"-np", "2", "-jar"})) {
            WeftRun quick = command();
            assertTrue(QuickCommandLine.read(line, quick), List.of(line).toString());
            ByteArrayOutputStream quickErr = new ByteArrayOutputStream();
            ByteArrayOutputStream picocliErr = new ByteArrayOutputStream();
            int quickStatus = WeftRun.execute(line, InputStream.nullInputStream(), DISCARD,
                    new PrintStream(quickErr, true, StandardCharsets.UTF_8));
            int picocliStatus = WeftRun.commandLine(command(), DISCARD,
                    new PrintStream(picocliErr, true, StandardCharsets.UTF_8)).execute(line);
            assertEquals(2, quickStatus, quickErr.toString(StandardCharsets.UTF_8));
            assertEquals(picocliStatus, quickStatus);
            assertEquals(picocliErr.toString(StandardCharsets.UTF_8), quickErr.toString(StandardCharsets.UTF_8));
        }
    }
}
