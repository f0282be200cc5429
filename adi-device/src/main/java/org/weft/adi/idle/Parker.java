package org.weft.adi.idle;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How a waiting thread sleeps at the park step of its {@link IdleStrategy}: for at most the given time, and less
 * when something it waits for may have happened. {@link #PARK} is {@link LockSupport#parkNanos}, ended early by an
 * unpark; a device may instead block in a module's doorbell, ended early by an arrival too.
 */
@FunctionalInterface
public interface Parker {
    Parker PARK = LockSupport::parkNanos;

    void park(long nanos);

    /**
     * As {@link #park(long)}, for a waiter whose condition is {@code done}: a parker that sleeps where a wake-up
     * signal is armed first (a doorbell) looks at {@code done} once more after arming it, so that what another process
     * did between the waiter's last look and the arming (a flag in shared memory, no message) is not slept through.
     */
    default void park(long nanos, BooleanSupplier done) {
        park(nanos);
    }
}
