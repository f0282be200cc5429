package org.weft.mm.progress;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads waiting for a completion. A completion on another thread unparks the waiters it may concern (the
 * owner of a thread's own request; else the threads waiting for that request, and the watchers), so that a waiter parked by its idle strategy, or sleeping while
 * another thread polls, does not sleep out its whole park. Fixed slots rather than a concurrent set: registering and
 * leaving happen on every wait and must not allocate. A thread that finds every slot taken waits unregistered; its
 * bounded park still ends the wait.
 *
 * <p>A <em>watcher</em> waits for a condition that may turn true without a completion (a probe: a message
 * arriving unexpected); {@link #wakeWatchers} wakes them when one does.
 *
 * <p>A waiter that <em>spins</em> ({@link #spinning}) looks at what it waits for between yields of its core and
 * does not sleep: a completion leaves it alone (no unpark, and no hand-off of the polling to it). On this 2-vCPU VM
 * waking a thread that sleeps costs 18–21 µs when it runs on the other, idle vCPU, against 1.6–1.9 µs for a yield
 * from one thread to the other on one vCPU (docs/performance.md, "2026-11-26, fourth").
 */
public final class Waiters {
    private static final int SLOTS = 64;

    /** What a watcher's slot waits for: a condition, which any completion may make true. */
    private static final Object CONDITION = new Object();

    private final AtomicReferenceArray<Thread> slots = new AtomicReferenceArray<>(SLOTS);
    /**
     * What the thread of each slot waits for: its request, or {@link #CONDITION}. Set after the slot is taken, so a
     * completion may read the last occupant's value; the waiter looks at its condition after setting it (and before
     * it parks), so a completion that missed it is seen by the waiter itself.
     */
    private final AtomicReferenceArray<Object> awaited = new AtomicReferenceArray<>(SLOTS);
    /** Per slot, {@link #SPINNING} or {@link #MAY_SLEEP}; see {@link #spinning}. */
    private final AtomicIntegerArray states = new AtomicIntegerArray(SLOTS);
    private static final int MAY_SLEEP = 0;
    private static final int SPINNING = 1;
    /** How many waiters spin now. */
    private final AtomicInteger spinners = new AtomicInteger();
    /** One past the highest slot ever taken: where {@link #wake} stops looking for a thread's slot. */
    private final AtomicInteger slotsUsed = new AtomicInteger();
    private final AtomicInteger count = new AtomicInteger();
    /** How many of the waiters are watchers. */
    private final AtomicInteger watchers = new AtomicInteger();
    /** Where {@link #wakeOne} looks first (plain: a race only changes who is woken). */
    private int next;
    /**
     * How many times a completion woke exactly one other thread, and the last such thread: the poller reads them
     * around a pass to hand the polling to the thread it woke ({@link ProgressEngine}). Plain: written by the thread
     * that completes (nearly always the poller), and a stale value only skips or adds one hand-off.
     */
    private long handOffs;
    private Thread lastWoken;
    /** Ends sleeps that an unpark does not end (a waiter blocked in a module's doorbell). */
    private volatile Runnable sleepers = () -> { };

    /**
     * Registers {@code thread} waiting for {@code request}, or for a condition (a watcher) when {@code request} is
     * {@code null}; returns its slot, or -1 when all are taken.
     */
    public int add(Thread thread, Object request) {
        boolean watching = request == null;
        for (int i = 0; i < SLOTS; i++) {
            if (slots.get(i) == null && slots.compareAndSet(i, null, thread)) {
                // The last occupant may have left its state SPINNING (see remove); until this reset a completer
                // skips this thread's unpark, which the thread makes up for by looking at its condition before it
                // ever parks.
                states.set(i, MAY_SLEEP);
                awaited.set(i, watching ? CONDITION : request);
                if (slotsUsed.get() <= i) {
                    slotsUsed.accumulateAndGet(i + 1, Math::max);
                }
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
            // Left while spinning: it says so until its slot is free, and the state stays until the next occupant
            // resets it. Resetting it first let a completer racing with the leaving find this thread in its slot
            // "may sleep", wake it and count a hand-off to a thread that was going (a CI run at load 0 saw it).
            boolean spun = states.get(slot) == SPINNING;
            slots.set(slot, null);
            if (spun) {
                spinners.decrementAndGet();
            }
            count.decrementAndGet();
            if (watching) {
                watchers.decrementAndGet();
            }
        }
    }

    /**
     * {@code request}, which any thread may wait for, completed: wakes the threads waiting for it and the watchers,
     * but not the calling thread (which is not parked: it is running this); one volatile read when nobody waits. In
     * a ping-pong the waiter itself usually completes its request during its own poll, and an unpark of oneself
     * costs as much as the rest of the delivery. Waking every waiter instead made each completion of a
     * nonblocking request cost every sleeping thread a wake-up (issue 20).
     */
    public void wakeWaitersOf(Object request) {
        if (count.get() != 0) {
            wakeMatching(request);
        }
    }

    /** Wakes the other threads waiting for {@code request} and the watchers. */
    private void wakeMatching(Object request) {
        Thread self = Thread.currentThread();
        Thread woken = null;
        int others = 0;
        for (int i = 0; i < SLOTS; i++) {
            Thread thread = slots.get(i);
            if (thread != null && thread != self) {
                Object what = awaited.get(i);
                if ((what == request || what == CONDITION) && states.get(i) != SPINNING) {
                    LockSupport.unpark(thread);
                    woken = thread;
                    others++;
                }
            }
        }
        if (others == 1) {
            handedOff(woken);
        }
        if (others > 0) {
            sleepers.run();
        }
    }

    private void handedOff(Thread woken) {
        lastWoken = woken;
        handOffs++;
    }

    /** How many times a completion has woken exactly one other thread so far (see {@link #lastWoken}). */
    long handOffs() {
        return handOffs;
    }

    /** The thread the last such completion woke. */
    Thread lastWoken() {
        return lastWoken;
    }

    /**
     * Wakes {@code thread}, the only waiter of what just completed (a thread's own request for its blocking calls),
     * and no other, unless it spins; one volatile read when nobody waits.
     */
    public void wake(Thread thread) {
        if (count.get() == 0 || thread == Thread.currentThread()) {
            return;
        }
        int state = stateOf(thread);
        if (state == SPINNING) {
            return;
        }
        LockSupport.unpark(thread); // also when unregistered: it may wait unregistered, all slots taken
        if (state == MAY_SLEEP) {
            handedOff(thread); // a thread that is not waiting (it left, or has not come yet) takes no hand-off
        }
        sleepers.run();
    }

    /** {@link #SPINNING} or {@link #MAY_SLEEP} for a registered waiter, -1 for a thread that is not one. */
    private int stateOf(Thread thread) {
        for (int i = 0, used = slotsUsed.get(); i < used; i++) {
            if (slots.get(i) == thread) {
                return states.get(i);
            }
        }
        return -1;
    }

    /**
     * The waiter of {@code slot} (from {@link #add}) spins: it looks at what it waits for between yields and needs no
     * unpark, until {@link #mayPark}. Its thread looks at its condition again after that, before it sleeps, so a
     * completion that saw it spinning is not missed (both sides write, then read, volatile fields).
     */
    void spinning(int slot) {
        states.set(slot, SPINNING);
        spinners.incrementAndGet();
    }

    /** The waiter of {@code slot} no longer spins, and may sleep: completions unpark it again. */
    void mayPark(int slot) {
        states.set(slot, MAY_SLEEP);
        spinners.decrementAndGet();
    }

    /** How many waiters spin now: a poller gives them its core between empty passes ({@link ProgressEngine}). */
    int spinners() {
        return spinners.get();
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
     * Something a watcher may wait for happened without a completion (a message arrived unexpected): wakes the
     * watchers; else one volatile read.
     */
    public void wakeWatchers() {
        if (watchers.get() > 0) {
            wakeMatching(CONDITION);
        }
    }

    /** Also runs {@code wake} whenever other waiters are woken: it ends sleeps in doorbells. */
    public void alsoWake(Runnable wake) {
        sleepers = wake;
    }
}
