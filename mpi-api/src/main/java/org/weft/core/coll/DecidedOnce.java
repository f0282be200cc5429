package org.weft.core.coll;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A resource of one communicator's collectives that its first call decides, for good, to make or to do without: the
 * shared segment ({@code coll.shm}), the native communicator ({@code coll.site}). The set-up is collective when it
 * makes something, so it runs once, under this holder's lock; later calls read the decision without locking. Freeing
 * the communicator {@linkplain #close closes} it: the resource is released and later calls find none.
 *
 * @param <T> the resource
 */
public final class DecidedOnce<T> {
    private static final int UNDECIDED = 0;
    private static final int MADE = 1;
    private static final int NONE = 2;

    private final Supplier<T> setUp;
    private final Consumer<T> release;
    private volatile int state = UNDECIDED;
    private T resource;

    /**
     * @param setUp   makes the resource, or returns {@code null} to do without it (every member decides alike)
     * @param release frees a resource {@code setUp} made
     */
    public DecidedOnce(Supplier<T> setUp, Consumer<T> release) {
        this.setUp = setUp;
        this.release = release;
    }

    /** The resource, deciding (and making it) now if this is the first call; {@code null} when there is none. */
    public T get() {
        int s = state;
        if (s == MADE) {
            return resource;
        }
        return s == NONE ? null : decide();
    }

    /** The resource when a call made it already, else {@code null}; never decides. */
    public T made() {
        return state == MADE ? resource : null;
    }

    private synchronized T decide() {
        if (state == UNDECIDED) {
            resource = setUp.get();
            state = resource != null ? MADE : NONE;
        }
        return state == MADE ? resource : null;
    }

    /** Releases the resource, if one was made; from now on there is none. */
    public synchronized void close() {
        if (state == MADE) {
            release.accept(resource);
            resource = null;
        }
        state = NONE;
    }
}
