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
 */
public final class JitHints {
    /** The out-of-line helpers, as {@code class::method} for {@code -XX:CompileCommand=dontinline}. */
    public static final List<String> NOT_INLINED = List.of("mpi.Comm::receive", "mpi.Comm::sendReceive");

    private JitHints() {
    }

    /** The JVM options: {@code quiet} first, or the JVM prints each command on the program's stdout. */
    public static List<String> jvmOptions() {
        List<String> options = new ArrayList<>(List.of("-XX:CompileCommand=quiet"));
        for (String method : NOT_INLINED) {
            options.add("-XX:CompileCommand=dontinline," + method);
        }
        return options;
    }
}
