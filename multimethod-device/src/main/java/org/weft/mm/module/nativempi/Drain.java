package org.weft.mm.module.nativempi;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waiting at shutdown for libmpi to finish what is in flight: a look, then pauses doubling from 1 µs to 1 ms. */
final class Drain {
    private static final long FIRST_PAUSE_NANOS = 1_000;
    private static final long LAST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private Drain() {
    }

    /** Asks {@code drained} (which may make progress) until it says yes or {@code timeoutNanos} have passed. */
    static void until(BooleanSupplier drained, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        long pause = FIRST_PAUSE_NANOS;
        while (!drained.getAsBoolean() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, LAST_PAUSE_NANOS);
        }
    }
}
