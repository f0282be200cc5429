package org.weft.mm.progress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.Selector;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.weft.adi.idle.Parker;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.Doorbell;

/**
 * The park step of this process's idle strategies. When one doorbell alone is armed and can sleep for any time (shm's
 * futex: a job on one host), every park, however short, sleeps in it ({@link Doorbell#sleepAlone}), so that what
 * the waiter waits for ends it: with more ranks than cores the back-off parks from a microsecond up, and a collective's
 * member that published found those short parks unwakeable. Otherwise a park of a millisecond or more sleeps in
 * {@code select} on one wake selector where the modules' doorbells registered their channels (tcp connections, shm's
 * datagram bell), so that an arrival ends it at once; shorter parks, parks with no armed doorbell and a second
 * thread's parks are {@link LockSupport#parkNanos} ({@code select} counts milliseconds). Completions on other threads
 * end a sleep through {@link #ringAll()}.
 */
public final class DoorbellParker implements Parker, AutoCloseable {
    /** Parks shorter than this do not use the doorbells. */
    static final long MIN_DOORBELL_NANOS = 1_000_000;

    /** Replaced whole when a module starts late ({@link #add}). */
    private volatile Doorbell[] doorbells;
    /** {@code null} when no module has a doorbell. */
    private volatile Selector selector;
    private final ReentrantLock sleeper = new ReentrantLock();
    /** True from just before a sleeper asks its doorbells until it woke: a ring then calls {@code wakeup}. */
    private volatile boolean sleeping;

    public DoorbellParker(List<CommModule> modules) {
        this.doorbells = modules.stream().map(CommModule::doorbell).filter(Objects::nonNull).toArray(Doorbell[]::new);
        try {
            this.selector = doorbells.length == 0 ? null : Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the wake selector", e);
        }
        for (Doorbell doorbell : doorbells) {
            doorbell.attach(selector);
        }
    }

    /** Lets {@code module}'s doorbell end sleeps too (a module started after the others); nothing if it has none. */
    public synchronized void add(CommModule module) {
        Doorbell doorbell = module.doorbell();
        if (doorbell == null) {
            return;
        }
        try {
            if (selector == null) {
                selector = Selector.open();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the wake selector", e);
        }
        doorbell.attach(selector);
        Doorbell[] grown = java.util.Arrays.copyOf(doorbells, doorbells.length + 1);
        grown[doorbells.length] = doorbell;
        doorbells = grown;
    }

    @Override
    public void park(long nanos) {
        park(nanos, null);
    }

    /**
     * As {@link #park(long)}; a sleep in the doorbells begins only if {@code done} (when given) is still false once
     * they are armed. The doorbells' own look covers messages; a waiter for a flag in shared memory (a collective
     * through the segment) has only {@code done}: a member that published between the waiter's last look and the
     * arming found it awake, rang nothing, and the waiter slept its whole period (a millisecond or more).
     */
    @Override
    public void park(long nanos, BooleanSupplier done) {
        Doorbell alone = soleArmed();
        if (alone != null && sleeper.tryLock()) {
            try {
                if (alone.sleepAlone(nanos, done)) {
                    return;
                }
            } finally {
                sleeper.unlock();
            }
        }
        if (nanos < MIN_DOORBELL_NANOS || !anyArmed() || !sleeper.tryLock()) {
            LockSupport.parkNanos(nanos);
            return;
        }
        Doorbell[] bells = doorbells;
        try {
            sleeping = true;
            boolean quiet = true;
            for (Doorbell doorbell : bells) {
                quiet &= doorbell.beforeSleep();
            }
            quiet = quiet && (done == null || !done.getAsBoolean()); // after the arming's fence: see the javadoc
            if (quiet) {
                selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)));
            }
            selector.selectedKeys().clear();
        } catch (IOException | ClosedSelectorException e) {
            LockSupport.parkNanos(nanos); // closing: sleep as a park would
        } finally {
            sleeping = false;
            for (Doorbell doorbell : bells) {
                doorbell.afterSleep();
            }
            sleeper.unlock();
        }
    }

    /** The one armed doorbell, if exactly one is armed; else null. */
    private Doorbell soleArmed() {
        Doorbell armed = null;
        for (Doorbell doorbell : doorbells) {
            if (doorbell.isArmed()) {
                if (armed != null) {
                    return null;
                }
                armed = doorbell;
            }
        }
        return armed;
    }

    private boolean anyArmed() {
        for (Doorbell doorbell : doorbells) {
            if (doorbell.isArmed()) {
                return true;
            }
        }
        return false;
    }

    /** Ends a sleep in progress (a completion that the sleeping waiter may be waiting for); else nothing. */
    public void ringAll() {
        if (sleeping) {
            selector.wakeup(); // a sleeper had one
        }
        for (Doorbell doorbell : doorbells) {
            doorbell.interrupt();
        }
    }

    /** Closes the wake selector; a sleep in progress ends. */
    @Override
    public synchronized void close() {
        if (selector != null) {
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing is all we wanted
            }
        }
    }
}
