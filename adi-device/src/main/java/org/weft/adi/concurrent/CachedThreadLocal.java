package org.weft.adi.concurrent;

import java.util.function.Supplier;

/**
 * A thread-local value that answers from its last hit when the same thread asks again: one load and a compare
 * instead of a {@link ThreadLocal} map look-up (a few nanoseconds, several times per message on the send and
 * receive paths). Any other thread falls back to the map and becomes the last hit.
 */
public final class CachedThreadLocal<T> {
    /** Immutable, so a racy read of {@link #last} sees a whole entry or none. */
    private record Entry<T>(Thread owner, T value) {
    }

    private final ThreadLocal<Entry<T>> entries;
    /** Plain field: a stale read only costs the map look-up. */
    private Entry<T> last;

    public CachedThreadLocal(Supplier<T> initialValue) {
        this.entries = ThreadLocal.withInitial(() -> new Entry<>(Thread.currentThread(), initialValue.get()));
    }

    /** The calling thread's value, made by the supplier on its first call. */
    public T get() {
        Entry<T> e = last;
        if (e == null || e.owner != Thread.currentThread()) {
            e = entries.get();
            last = e;
        }
        return e.value;
    }
}
