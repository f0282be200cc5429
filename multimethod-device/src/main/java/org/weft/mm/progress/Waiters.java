package org.weft.mm.progress;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads waiting for a completion. A completion on another thread (a Netty event loop) unparks them, so a
 * waiter that backed off to parking does not sleep out its whole park period.
 */
public final class Waiters {
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();

    public void add(Thread thread) {
        waiting.add(thread);
    }

    public void remove(Thread thread) {
        waiting.remove(thread);
    }

    /** Wakes every waiter; cheap when nobody waits. */
    public void wakeAll() {
        if (!waiting.isEmpty()) {
            for (Thread thread : waiting) {
                LockSupport.unpark(thread);
            }
        }
    }
}
