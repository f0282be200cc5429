package org.weft.adi.idle;

import java.util.concurrent.locks.LockSupport;

/**
 * How a waiting thread sleeps at the park step of its {@link IdleStrategy}: for at most the given time, and less
 * when something it waits for may have happened. {@link #PARK} is {@link LockSupport#parkNanos}, ended early by an
 * unpark; a device may instead block in a module's doorbell, ended early by an arrival too.
 */
@FunctionalInterface
public interface Parker {
    Parker PARK = LockSupport::parkNanos;

    void park(long nanos);
}
