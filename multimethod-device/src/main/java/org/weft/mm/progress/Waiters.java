package org.weft.mm.progress;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads waiting for a completion. A completion on another thread unparks them, so a waiter that backed off to
 * parking does not sleep out its whole park period. Fixed slots rather than a concurrent set: registering and
 * leaving happen on every wait and must not allocate. A thread that finds every slot taken waits unregistered; its
 * bounded park still ends the wait.
 */
public final class Waiters {
    private static final int SLOTS = 64;

    private final AtomicReferenceArray<Thread> slots = new AtomicReferenceArray<>(SLOTS);
    private final AtomicInteger count = new AtomicInteger();
    /** Ends sleeps that an unpark does not end (a waiter blocked in a module's doorbell). */
    private volatile Runnable sleepers = () -> { };

    /** Registers {@code thread}; returns its slot, or -1 when all are taken. */
    public int add(Thread thread) {
        for (int i = 0; i < SLOTS; i++) {
            if (slots.get(i) == null && slots.compareAndSet(i, null, thread)) {
                count.incrementAndGet();
                return i;
            }
        }
        return -1;
    }

    /** Leaves the slot {@link #add} returned. */
    public void remove(int slot) {
        if (slot >= 0) {
            slots.set(slot, null);
            count.decrementAndGet();
        }
    }

    /**
     * Wakes every waiter but the calling thread (which is not parked: it is running this); one volatile read when
     * nobody waits. In a ping-pong the waiter itself usually completes its request during its own poll, and an
     * unpark of oneself costs as much as the rest of the delivery.
     */
    public void wakeAll() {
        if (count.get() == 0) {
            return;
        }
        Thread self = Thread.currentThread();
        boolean others = false;
        for (int i = 0; i < SLOTS; i++) {
            Thread thread = slots.get(i);
            if (thread != null && thread != self) {
                LockSupport.unpark(thread);
                others = true;
            }
        }
        if (others) {
            sleepers.run();
        }
    }

    /** Also runs {@code wake} whenever other waiters are woken: it ends sleeps in doorbells. */
    public void alsoWake(Runnable wake) {
        sleepers = wake;
    }
}
