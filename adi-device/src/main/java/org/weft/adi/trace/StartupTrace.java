package org.weft.adi.trace;

import org.weft.adi.param.Parameter;

/**
 * Prints when each phase of a process's start-up and shut-down ends, in milliseconds since the JVM started, when
 * parameter {@link #TRACE_STARTUP} is 1: {@code WEFT_TRACE_STARTUP=1 weftrun ...} traces the launcher and the ranks,
 * {@code weftrun --param trace_startup=1} the ranks. Off, {@link #mark} costs a static final load.
 *
 * <p>Read from the environment only (not the parameter file): the launcher marks phases before it reads anything.
 */
public final class StartupTrace {
    public static final Parameter<Integer> TRACE_STARTUP = Parameter.integer("trace_startup", 0, "flag",
            "1 = print on stderr when each phase of start-up and shut-down ends (ms since the JVM started)");

    private static final boolean ON = "1".equals(System.getenv(TRACE_STARTUP.environmentName()));
    /** The JVM's start in epoch milliseconds; read only when tracing (it costs a /proc read). */
    private static final long JVM_START_MILLIS = ON ? ProcessHandle.current().info().startInstant()
            .map(java.time.Instant::toEpochMilli).orElse(System.currentTimeMillis()) : 0;

    private StartupTrace() {
    }

    /** True when phases are printed. */
    public static boolean on() {
        return ON;
    }

    /** Prints that {@code phase} of process {@code who} (e.g. {@code rank 3}, {@code weftrun}) ended now. */
    public static void mark(String who, String phase) {
        if (ON) {
            System.err.println("weft-trace " + who + " " + (System.currentTimeMillis() - JVM_START_MILLIS) + " ms "
                    + phase);
        }
    }
}
