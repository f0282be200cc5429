package org.weft.mm;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.ToIntFunction;

/**
 * The startpoints whose method pushed back, waiting for a progress pass to flush them. Every pass asks whether there
 * is any: a volatile flag answers that for one load, where the queue's own {@code isEmpty()} walks and may tidy its
 * head (a few per cent of a waiting rank's loop in a profile of the ping-pong).
 */
final class Backlog {
    private final ConcurrentLinkedQueue<Startpoint> queue = new ConcurrentLinkedQueue<>();
    /** Set after every add; cleared by a flush before it drains, so an add racing with the flush sets it again. */
    private volatile boolean mayHaveEntries;

    void add(Startpoint startpoint) {
        queue.add(startpoint);
        mayHaveEntries = true;
    }

    /** Takes the startpoints queued now (a flush re-adds those still pushed back) and hands each to {@code flush}. */
    int drain(ToIntFunction<Startpoint> flush) {
        if (!mayHaveEntries) {
            return 0;
        }
        mayHaveEntries = false;
        int sent = 0;
        for (int i = queue.size(); i > 0; i--) {
            Startpoint startpoint = queue.poll();
            if (startpoint == null) {
                break;
            }
            sent += flush.applyAsInt(startpoint);
        }
        return sent;
    }
}
