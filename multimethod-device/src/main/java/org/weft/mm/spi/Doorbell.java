package org.weft.mm.spi;

import java.nio.channels.Selector;

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
}
