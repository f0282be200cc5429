package org.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
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

    /**
     * TLS between sites runs every message through the JDK's engine and cipher: compiled at the JDK-wide scale,
     * a fresh job's TLS ping-pong took ~20 000 round trips to reach its steady one-way time.
     */
    @Test
    void theTlsRecordPathCompilesAtTheUsualCounts() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine();
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        for (String type : List.of(engine.getClass().getName(), SSLEngine.class.getName(),
                cipher.getClass().getName(), "sun.security.ssl.SSLCipher", "sun.security.ssl.SSLEngineOutputRecord",
                "sun.security.ssl.SSLEngineInputRecord", "com.sun.crypto.provider.GaloisCounterMode")) {
            assertEquals(1.0, JitHints.thresholdScaleOf(type), type);
        }
        assertEquals(Double.parseDouble(JitHints.JDK_THRESHOLD_SCALE), JitHints.thresholdScaleOf("java.util.HashMap"),
                "the JDK's start-up code stays at the JDK-wide scale");
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
