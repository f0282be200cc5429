package org.weft.mm.progress;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Which waiting thread polls for the others ({@link ProgressEngine#await}): at most one holds the token. A
 * <em>background</em> holder — an internal thread that waits all the time, such as a window's service thread
 * waiting for the next one-sided request — gives the token up to any other thread that starts waiting, which has
 * most likely just sent something and expects its answer: that thread then polls for itself (and the others), as a
 * single-threaded program's does, instead of sleeping until the background thread's back-off lets it deliver.
 */
final class PollerToken {
    private final AtomicReference<Thread> holder = new AtomicReference<>();
    /** The holder waits in the background (plain race: a stale value only moves the token once more). */
    private volatile boolean background;

    /** Whether a thread starting to wait should poll itself: nobody polls for the others, or only in background. */
    boolean open() {
        return holder.get() == null || background;
    }

    /**
     * Takes the token if it is free, or held in the background and {@code self} does not wait in the background;
     * true when {@code self} now holds it.
     */
    boolean take(Thread self, boolean inBackground) {
        Thread current = holder.get();
        boolean taken = current == null ? holder.compareAndSet(null, self)
                : !inBackground && background && holder.compareAndSet(current, self);
        if (taken) {
            background = inBackground;
        }
        return taken;
    }

    boolean heldBy(Thread self) {
        return holder.get() == self;
    }

    boolean isFree() {
        return holder.get() == null;
    }

    /** {@code self} stops polling for the others (unless another thread took the token meanwhile). */
    void release(Thread self) {
        holder.compareAndSet(self, null);
    }
}
