package org.weft.adi.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lock for critical sections of a few dozen instructions on the message path (a ring's producer, the matching
 * engine, a module's poll token): taken with one CAS and given back with a release store, where a monitor or a {@code ReentrantLock} costs
 * two locked instructions (about 7 ns each here, several per message). A contender spins briefly, then yields its
 * core, since on an oversubscribed host the holder may be waiting for one.
 *
 * <p>Not reentrant: code under the lock must not take it again (no callbacks into other modules under it).
 */
public final class SpinLock {
    private static final VarHandle HELD;
    private static final int SPINS_BEFORE_YIELDING = 100;

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(SpinLock.class, "held", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through HELD
    private volatile int held;

    public void lock() {
        if (!HELD.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    /** Takes the lock if it is free, without waiting (a poller's token: another poller at work means no work). */
    public boolean tryLock() {
        return HELD.compareAndSet(this, 0, 1);
    }

    private void lockContended() {
        int spins = 0;
        while (held != 0 || !HELD.compareAndSet(this, 0, 1)) {
            if (++spins < SPINS_BEFORE_YIELDING) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    public void unlock() {
        HELD.setRelease(this, 0);
    }
}
