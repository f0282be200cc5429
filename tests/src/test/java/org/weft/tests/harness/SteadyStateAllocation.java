package org.weft.tests.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import mpi.MPI;

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

    /**
     * How long an allocation job or world may take before it counts as hung: 10-60 s quiet, up to 100 s seen at
     * load 30 (two ranks spinning on 2 loaded cores), so 240 s; the test classes' own limit is above it.
     */
    public static final Duration TIMEOUT = Duration.ofSeconds(240);

    private SteadyStateAllocation() {
    }

    /**
     * The least bytes this thread allocated in any window of {@code measured} rounds, after {@code warmUp} rounds:
     * windows run until every rank of {@code MPI.COMM_WORLD} has had one below {@code enoughBytes}, at most
     * {@code windows}. The least only falls with more windows, so stopping once every rank is below the bound
     * changes no verdict; it spares a quiet machine the windows a loaded one needs, where the JIT compiles the
     * loop later (the ranks agree by a reduction between windows, outside what is measured).
     */
    public static long leastBytes(Rounds exchange, int warmUp, int measured, int windows, long enoughBytes)
            throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        exchange.run(warmUp);
        long[] least = {Long.MAX_VALUE};
        long[] mostOfLeast = new long[1];
        for (int window = 0; window < windows; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            exchange.run(measured);
            least[0] = Math.min(least[0], threads.getCurrentThreadAllocatedBytes() - before);
            MPI.COMM_WORLD.allReduce(least, mostOfLeast, 1, MPI.LONG, MPI.MAX);
            if (mostOfLeast[0] < enoughBytes) {
                break;
            }
        }
        return least[0];
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
