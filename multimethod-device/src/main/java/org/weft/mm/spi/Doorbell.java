package org.weft.mm.spi;

import java.nio.channels.Selector;
import java.util.function.BooleanSupplier;

/**
 * A module's way to end a waiting thread's sleep when an RSR may have arrived: channels the kernel makes ready (a tcp
 * connection with bytes, a datagram a peer sends to say "look"), registered with the process's one wake selector. A
 * parked rank then sees a message when it comes, not up to a park period later, and the data path keeps no thread
 * hand-off. Thread-safe.
 */
public interface Doorbell {
    /** Registers with {@code selector} what may end a sleep, now and as new channels come; called once. */
    void attach(Selector selector);

    /** Whether anything could ring now (a tcp module with no connection cannot). */
    boolean isArmed();

    /**
     * Just before a sleep: asks peers to ring from now on and returns {@code false} when something has already come
     * (the thread then does not sleep). {@link #afterSleep()} follows either way.
     */
    boolean beforeSleep();

    /** After the sleep, whatever ended it: peers need not ring any more; what rang is cleared. */
    void afterSleep();

    /**
     * Sleeps up to {@code nanos} in this doorbell alone, without the wake selector, where it can sleep for any time
     * and be rung out of it (shm: a futex): asks peers to ring, looks once more at what may have come and at {@code
     * done} (may be null), sleeps unless either is there, and lets peers stop ringing. Returns false, having done
     * nothing, where it cannot; the caller then sleeps as before. Called by one thread at a time.
     */
    default boolean sleepAlone(long nanos, BooleanSupplier done) {
        return false;
    }

    /** Ends a {@link #sleepAlone} in progress (something another thread of this process did); else nothing. */
    default void interrupt() {
    }
}
