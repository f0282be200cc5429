package org.weft.tests.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the allocation tests measure a steady state: the bytes the calling thread allocates (the JVM's per-thread
 * counter counts every one) while it runs an exchange, after a warm-up. Steady state means compiled: the JIT may
 * still be compiling (and not yet scalar-replacing a few short-lived objects) during a window, so the least of
 * several windows is what counts. A job's ranks each print their figure ({@link #print}) for the test to judge
 * ({@link #assertNothingPerMessage}).
 */
public final class SteadyStateAllocation {
    private static final Pattern LINE = Pattern.compile("ALLOCATED rank (\\d+) bytes (\\d+) messages (\\d+)");

    /** Runs {@code rounds} rounds of an exchange on the calling thread. */
    @FunctionalInterface
    public interface Rounds {
        void run(int rounds) throws Exception;
    }

    private SteadyStateAllocation() {
    }

    /** The least bytes this thread allocated in any of {@code windows} windows of {@code measured} rounds. */
    public static long leastBytes(Rounds exchange, int warmUp, int measured, int windows) throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        exchange.run(warmUp);
        long least = Long.MAX_VALUE;
        for (int window = 0; window < windows; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            exchange.run(measured);
            least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
        }
        return least;
    }

    /** A rank's line for {@link #assertNothingPerMessage}: {@code ALLOCATED rank R bytes B messages M}. */
    public static void print(int rank, long bytes, int messages) {
        System.out.println("ALLOCATED rank " + rank + " bytes " + bytes + " messages " + messages);
    }

    /** Every one of the job's {@code ranks} printed its line, and allocated less than a byte per message. */
    public static void assertNothingPerMessage(WeftrunJob.Result result, int ranks, String over) {
        assertPerMessageBelow(result, ranks, 1.0, over);
    }

    /** Every one of the job's {@code ranks} printed its line, and allocated less than {@code limit} bytes a message. */
    public static void assertPerMessageBelow(WeftrunJob.Result result, int ranks, double limit, String over) {
        Matcher line = LINE.matcher(result.stdout());
        int found = 0;
        while (line.find()) {
            found++;
            double perMessage = Long.parseLong(line.group(2)) / (double) Long.parseLong(line.group(3));
            assertTrue(perMessage < limit, "rank " + line.group(1) + " allocated " + line.group(2) + " bytes in "
                    + line.group(3) + " messages over " + over + " (" + perMessage + " a message; less than "
                    + limit + " expected)");
        }
        assertEquals(ranks, found, result.output());
    }
}
