package org.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
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
        assertEquals(JitHints.NOT_INLINED.size() + 1, JitHints.jvmOptions().size());
    }
}
