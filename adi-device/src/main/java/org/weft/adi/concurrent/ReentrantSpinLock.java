package org.weft.adi.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link SpinLock} its holder may take again: the outermost lock is one CAS, an inner one a field compare, and
 * only the outermost unlock (a release store) gives it back. For a lock held across a call out that may come back
 * for it, such as a module's poll that delivers an RSR whose handler answers through the same module.
 */
public final class ReentrantSpinLock {
    private static final VarHandle OWNER;
    private static final int SPINS_BEFORE_YIELDING = 100;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(ReentrantSpinLock.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through OWNER
    private volatile Thread owner;
    /** Locks taken by the owner and not given back yet (written by the owner only). */
    private int holds;

    public void lock() {
        Thread me = Thread.currentThread();
        if (!tryLock(me)) {
            int spins = 0;
            do {
                if (++spins < SPINS_BEFORE_YIELDING) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            } while (!tryLock(me));
        }
    }

    /** Takes the lock if it is free or already this thread's, without waiting. */
    public boolean tryLock() {
        return tryLock(Thread.currentThread());
    }

    private boolean tryLock(Thread me) {
        Thread current = (Thread) OWNER.getOpaque(this);
        if (current == me) {
            holds++;
            return true;
        }
        if (current == null && OWNER.compareAndSet(this, null, me)) {
            holds = 1;
            return true;
        }
        return false;
    }

    /** Gives back one hold; the last one frees the lock. Only its holder may call this. */
    public void unlock() {
        if (--holds == 0) {
            OWNER.setRelease(this, null);
        }
    }

    /** Whether the calling thread holds the lock. */
    public boolean isHeldByCurrentThread() {
        return OWNER.getOpaque(this) == Thread.currentThread();
    }
}
