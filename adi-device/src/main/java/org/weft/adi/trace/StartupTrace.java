package org.weft.adi.trace;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.weft.adi.param.Parameter;

/**
 * Prints when each phase of a process's start-up and shut-down ends, when parameter {@link #TRACE_STARTUP} is 1:
 * {@code WEFT_TRACE_STARTUP=1 weftrun ...} traces the launcher and the ranks, {@code weftrun --param
 * trace_startup=1} the ranks. A line gives the milliseconds since the JVM started, the time of day (to line up the
 * processes of a job: each JVM's own start differs) and the CPU the process has used so far (its live threads'
 * {@code /proc} schedstat, which loaded machines inflate far less than wall time). Off, {@link #mark} costs a static
 * final load.
 *
 * <p>Read from the environment only (not the parameter file): the launcher marks phases before it reads anything.
 */
public final class StartupTrace {
    public static final Parameter<Integer> TRACE_STARTUP = Parameter.integer("trace_startup", 0, "flag",
            "1 = print on stderr when each phase of start-up and shut-down ends (ms since the JVM started, time of"
                    + " day, CPU used)");

    private static final boolean ON = "1".equals(System.getenv(TRACE_STARTUP.environmentName()));
    /** The JVM's start in epoch milliseconds; read only when tracing (it costs a /proc read). */
    private static final long JVM_START_MILLIS = ON ? ProcessHandle.current().info().startInstant()
            .map(java.time.Instant::toEpochMilli).orElse(System.currentTimeMillis()) : 0;
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private StartupTrace() {
    }

    /** True when phases are printed. */
    public static boolean on() {
        return ON;
    }

    /** Prints that {@code phase} of process {@code who} (e.g. {@code rank 3}, {@code weftrun}) ended now. */
    public static void mark(String who, String phase) {
        if (ON) {
            long now = System.currentTimeMillis();
            System.err.println("weft-trace " + who + " " + (now - JVM_START_MILLIS) + " ms at "
                    + timeOfDay(now) + " cpu " + cpuMillis() + " ms " + phase);
        }
    }

    /** {@code HH:MM:SS.mmm} (UTC) of an epoch time, without formatters (their classes cost start-up). */
    static String timeOfDay(long epochMillis) {
        long millis = Math.floorMod(epochMillis, MILLIS_PER_DAY);
        return digits(millis / 3_600_000, 2) + ":" + digits(millis / 60_000 % 60, 2) + ":"
                + digits(millis / 1000 % 60, 2) + "." + digits(millis % 1000, 3);
    }

    private static String digits(long value, int width) {
        String text = Long.toString(value);
        return "0".repeat(Math.max(0, width - text.length())) + text;
    }

    /**
     * The CPU time of this process's live threads in milliseconds (the sum of their schedstat run times), or -1 where
     * {@code /proc} does not tell. Threads that have ended are not counted (a JVM's start-up ends few).
     */
    static long cpuMillis() {
        long nanos = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String schedstat = Files.readString(task.resolve("schedstat"));
                nanos += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return nanos / 1_000_000;
    }
}
