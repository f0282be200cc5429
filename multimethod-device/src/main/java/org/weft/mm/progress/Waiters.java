package org.weft.mm.progress;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads waiting for a completion. A completion on another thread unparks the waiters it may concern (the
 * owner of a thread's own request, else all), so that a waiter parked by its idle strategy, or sleeping while
 * another thread polls, does not sleep out its whole park. Fixed slots rather than a concurrent set: registering and
 * leaving happen on every wait and must not allocate. A thread that finds every slot taken waits unregistered; its
 * bounded park still ends the wait.
 *
 * <p>A <em>watcher</em> waits for a condition that may turn true without a completion (a probe: a message
 * arriving unexpected); {@link #wakeWatchers} wakes them when one does.
 */
public final class Waiters {
    private static final int SLOTS = 64;

    private final AtomicReferenceArray<Thread> slots = new AtomicReferenceArray<>(SLOTS);
    private final AtomicInteger count = new AtomicInteger();
    /** How many of the waiters are watchers. */
    private final AtomicInteger watchers = new AtomicInteger();
    /** Where {@link #wakeOne} looks first (plain: a race only changes who is woken). */
    private int next;
    /** Ends sleeps that an unpark does not end (a waiter blocked in a module's doorbell). */
    private volatile Runnable sleepers = () -> { };

    /** Registers {@code thread}, a watcher if {@code watching}; returns its slot, or -1 when all are taken. */
    public int add(Thread thread, boolean watching) {
        for (int i = 0; i < SLOTS; i++) {
            if (slots.get(i) == null && slots.compareAndSet(i, null, thread)) {
                if (watching) {
                    watchers.incrementAndGet();
                }
                count.incrementAndGet();
                return i;
            }
        }
        return -1;
    }

    /** Leaves the slot {@link #add} returned, with the same {@code watching}. */
    public void remove(int slot, boolean watching) {
        if (slot >= 0) {
            slots.set(slot, null);
            count.decrementAndGet();
            if (watching) {
                watchers.decrementAndGet();
            }
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

    /**
     * Wakes {@code thread}, the only waiter of what just completed (a thread's own request for its blocking calls),
     * and no other; one volatile read when nobody waits.
     */
    public void wake(Thread thread) {
        if (count.get() == 0 || thread == Thread.currentThread()) {
            return;
        }
        LockSupport.unpark(thread);
        sleepers.run();
    }

    /** Wakes one waiter, if any (the next after the last one woken, so that it is not always the same). */
    public void wakeOne() {
        if (count.get() == 0) {
            return;
        }
        int start = next;
        for (int i = 0; i < SLOTS; i++) {
            int at = (start + i) & (SLOTS - 1);
            Thread thread = slots.get(at);
            if (thread != null) {
                next = at + 1;
                LockSupport.unpark(thread); // waiters that do not poll park: no doorbell to ring
                return;
            }
        }
    }

    /**
     * Something a watcher may wait for happened without a completion (a message arrived unexpected): wakes every
     * waiter if a watcher is among them; else one volatile read.
     */
    public void wakeWatchers() {
        if (watchers.get() > 0) {
            wakeAll();
        }
    }

    /** Also runs {@code wake} whenever other waiters are woken: it ends sleeps in doorbells. */
    public void alsoWake(Runnable wake) {
        sleepers = wake;
    }
}
