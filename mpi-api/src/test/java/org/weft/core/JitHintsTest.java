package org.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JIT hints name methods that exist: a renamed helper would otherwise lose its hint without a word. */
class JitHintsTest {
    @Test
    void everyMethodKeptOutOfLineExists() throws Exception {
        for (String hint : JitHints.NOT_INLINED) {
            String[] parts = hint.split("::");
            Class<?> type = Class.forName(parts[0]);
            assertTrue(Arrays.stream(type.getDeclaredMethods()).map(Method::getName).anyMatch(parts[1]::equals),
                    hint + " names no method");
        }
    }

    @Test
    void quietComesFirstSoTheJvmPrintsNothing() {
        assertEquals("-XX:CompileCommand=quiet", JitHints.jvmOptions().getFirst());
        assertEquals(JitHints.NOT_INLINED.size() + JitHints.SLOW_TO_COMPILE.size()
                + JitHints.ON_THE_MESSAGE_PATH.size() + 1, JitHints.jvmOptions().size());
        assertTrue(JitHints.jvmOptions().getLast().endsWith(",1.0"),
                "the message path's packages come after the JDK's: the later command for a method wins");
    }

    /** The JVM refuses a scale it cannot read as a double ("5" is not one): every rank would fail to start. */
    @Test
    void theJvmAcceptsTheOptions() throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JitHints.jvmOptions());
        command.add("-version");
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes());
        assertEquals(0, java.waitFor(), output);
    }
}
