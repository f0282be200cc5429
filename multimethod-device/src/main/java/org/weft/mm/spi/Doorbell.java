package org.weft.mm.spi;

/**
 * A module's way to let a waiting thread sleep until an RSR may have arrived (the kernel wakes it: a socket became
 * readable), instead of for a fixed park period after which it polls again. A parked rank then sees a message when it
 * comes, not up to a park period later, without any thread hand-off on the data path. Thread-safe.
 */
public interface Doorbell {
    /** Whether there is anything to wait on now (a tcp module with no connection has none). */
    boolean isArmed();

    /**
     * Sleeps until something may have arrived, {@link #ring()} is called, or about {@code nanos} passed. A thread that
     * finds another one sleeping here parks instead (its sleep ends by the time, or by an unpark).
     */
    void await(long nanos);

    /** Ends a sleep in {@link #await} now (a completion on another thread); harmless when nobody sleeps. */
    void ring();

    /** Releases what the doorbell holds; sleeps end. */
    void close();
}
