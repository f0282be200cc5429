package org.weft.tests.harness;

import java.lang.management.ManagementFactory;

/**
 * How the allocation tests measure a steady state: the bytes the calling thread allocates (the JVM's per-thread
 * counter counts every one) while it runs an exchange, after a warm-up. Steady state means compiled: the JIT may
 * still be compiling (and not yet scalar-replacing a few short-lived objects) during a window, so the least of
 * several windows is what counts.
 */
public final class SteadyStateAllocation {
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
}
