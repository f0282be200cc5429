package org.weft.core;

import java.util.ArrayList;
import java.util.List;

/**
 * What Weft asks of the JIT, as JVM options every rank is started with (by {@code weftrun}).
 *
 * <p>A blocking receive returns a new {@code Status}, as the API requires, and most programs drop it. The JIT drops
 * it too (escape analysis) only if the API method that makes it is inlined into the program's loop, and it does not
 * inline a method whose own compiled code is big: {@code Comm.recv} with the whole receive path in it is. So the work
 * of each such method ({@code recv}, {@code sendRecv}) lives in a helper the JIT keeps out of line, and the method
 * itself only makes the status ({@code Status.ofReceived}). Measured: a blocking ping-pong allocated 40 bytes per
 * round trip without this and none with it; a fresh heap's first touch of that garbage cost ~0.01–0.03 µs a message
 * (docs/performance.md).
 *
 * <p>A rank's JVM compiled ~370 methods while a Hello started, nearly all the JDK's own start-up code (class-file
 * spinning for method handles, zip directories, manifests, string hashing), and that JIT work was a third of a
 * rank's CPU; so the JDK's methods ({@link #SLOW_TO_COMPILE}) are compiled at {@value #JDK_THRESHOLD_SCALE} times the
 * usual invocation counts. Weft's and the program's own methods keep theirs: their hot paths are compiled as early
 * as before, the JDK methods they call inlined into them (docs/performance.md, "2026-11-26, fifth"). The JDK's
 * packages a message runs through ({@link #ON_THE_MESSAGE_PATH}) keep the usual counts: compiled late, they made
 * the steady 0-byte shm one-way 0.142-0.164 us where it is 0.132-0.134 without (idle, 2026-11-26 18:20), for a
 * start-up that is the same either way (4-rank Hello 0.68 s wall, 0.65-0.69 s CPU). So do the packages of the JDK's TLS
 * record layer (a link that leaves a site runs every message through {@code SSLEngine.wrap} and {@code unwrap}):
 * compiled at 20 times the counts, a fresh two-rank TLS ping-pong took ~20 000 round trips to reach its steady
 * one-way time, and {@code weft bench tls} measured the JIT, not the cipher (docs/performance.md, "Issue 22, sixth
 * session"); a job that never leaves a site never runs them.
 */
public final class JitHints {
    /** The out-of-line helpers, as {@code class::method} for {@code -XX:CompileCommand=dontinline}. */
    public static final List<String> NOT_INLINED = List.of("mpi.Comm::receive", "mpi.Comm::sendReceive");
    /** The JDK's packages, as {@code -XX:CompileCommand} patterns. */
    public static final List<String> SLOW_TO_COMPILE = List.of("java/*.*", "javax/*.*", "jdk/*.*", "sun/*.*");
    /**
     * The JDK's packages a message's path runs through (memory segments, var handles, buffers, locks, and TLS's
     * engine and cipher), which keep the usual counts: a later command for a method overrides an earlier one.
     */
    public static final List<String> ON_THE_MESSAGE_PATH = List.of("jdk/internal/foreign/*.*",
            "java/lang/invoke/*.*", "jdk/internal/misc/*.*", "java/nio/*.*", "java/util/concurrent/*.*",
            "jdk/internal/util/*.*", "sun/nio/ch/*.*", "sun/security/ssl/*.*", "javax/net/ssl/*.*",
            "javax/crypto/*.*");
    /** How many times the usual counts a JDK method is invoked before it is compiled. */
    public static final String JDK_THRESHOLD_SCALE = "20.0";

    private JitHints() {
    }

    /**
     * The scale of the compile thresholds a method of {@code className} (binary name, e.g. {@code java.nio.Buffer})
     * gets from {@link #jvmOptions}: as the JVM applies them, the last pattern that matches wins.
     */
    public static double thresholdScaleOf(String className) {
        String path = className.replace('.', '/');
        double scale = 1.0;
        for (String pattern : SLOW_TO_COMPILE) {
            scale = matches(pattern, path) ? Double.parseDouble(JDK_THRESHOLD_SCALE) : scale;
        }
        for (String pattern : ON_THE_MESSAGE_PATH) {
            scale = matches(pattern, path) ? 1.0 : scale;
        }
        return scale;
    }

    /** A {@code package/prefix/*.*} pattern: every class whose path starts with the prefix, subpackages too. */
    private static boolean matches(String pattern, String classPath) {
        return classPath.startsWith(pattern.substring(0, pattern.length() - "*.*".length()));
    }

    /** The JVM options: {@code quiet} first, or the JVM prints each command on the program's stdout. */
    public static List<String> jvmOptions() {
        List<String> options = new ArrayList<>(List.of("-XX:CompileCommand=quiet"));
        for (String method : NOT_INLINED) {
            options.add("-XX:CompileCommand=dontinline," + method);
        }
        for (String pattern : SLOW_TO_COMPILE) {
            options.add("-XX:CompileCommand=CompileThresholdScaling," + pattern + "," + JDK_THRESHOLD_SCALE);
        }
        for (String pattern : ON_THE_MESSAGE_PATH) {
            options.add("-XX:CompileCommand=CompileThresholdScaling," + pattern + ",1.0");
        }
        return options;
    }
}
