package org.weft.mm.module.tcp;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Peers whose connection was lost for good, each told to the device once its wait is over. The wait exists because
 * a lost connection is most often a rank that died, which the launcher sees too and reports better (naming the rank
 * and how it ended, with its exit status) when it ends the job; only a job still running after the wait — a peer
 * alive behind a reset connection, a garbled frame, a TLS record that failed its check — fails its operations here.
 * Thread-safe; {@link #tellDue} costs one volatile read while nothing is lost.
 */
final class LostPeers {
    private record Loss(int peer, String why, long dueNanos) {
    }

    private final long waitNanos;
    /** Where a loss is told once its wait is over (the device). */
    private final BiConsumer<Integer, String> device;
    private final List<Loss> waiting = new ArrayList<>();
    /** Whether {@link #waiting} holds anything (read without the lock by every poll). */
    private volatile boolean any;

    LostPeers(long waitNanos, BiConsumer<Integer, String> device) {
        this.waitNanos = waitNanos;
        this.device = device;
    }

    /** {@code peer}'s connection is gone for {@code why}: the device hears of it after the wait. */
    synchronized void lost(int peer, String why, long now) {
        for (Loss loss : waiting) {
            if (loss.peer == peer) {
                return;
            }
        }
        waiting.add(new Loss(peer, why, now + waitNanos));
        any = true;
    }

    /**
     * Tells the device of every loss whose wait is over (outside the lock); returns how many. Every poll calls it:
     * it allocates nothing while nothing is lost (the device's callback was made once, at construction).
     */
    int tellDue() {
        if (!any) {
            return 0;
        }
        long now = System.nanoTime();
        List<Loss> due = new ArrayList<>();
        synchronized (this) {
            waiting.removeIf(loss -> now - loss.dueNanos >= 0 && due.add(loss));
            any = !waiting.isEmpty();
        }
        due.forEach(loss -> device.accept(loss.peer, loss.why));
        return due.size();
    }
}
