package org.weft.mm;

import java.util.ArrayDeque;
import java.util.function.ToIntFunction;

/**
 * The startpoints whose method pushed back, waiting for a progress pass to flush them. Every pass asks whether there
 * is any: a volatile flag answers that for one load, where the queue's own {@code isEmpty()} walks and may tidy its
 * head (a few per cent of a waiting rank's loop in a profile of the ping-pong).
 *
 * <p>A startpoint still pushed back is re-added by every pass that flushes it, so adding must not allocate (a
 * linked queue's node per pass made a rank waiting on a full ring produce megabytes of garbage a second): an array
 * deque under its monitor. The monitor is never held while a startpoint flushes, which takes the startpoint's own
 * monitor and may add again.
 */
final class Backlog {
    private final ArrayDeque<Startpoint> queue = new ArrayDeque<>();
    /** Set after every add; cleared by a flush before it drains, so an add racing with the flush sets it again. */
    private volatile boolean mayHaveEntries;

    void add(Startpoint startpoint) {
        synchronized (queue) {
            queue.addLast(startpoint);
        }
        mayHaveEntries = true;
    }

    /** Takes the startpoints queued now (a flush re-adds those still pushed back) and hands each to {@code flush}. */
    int drain(ToIntFunction<Startpoint> flush) {
        if (!mayHaveEntries) {
            return 0;
        }
        mayHaveEntries = false;
        int sent = 0;
        for (int i = size(); i > 0; i--) {
            Startpoint startpoint;
            synchronized (queue) {
                startpoint = queue.pollFirst();
            }
            if (startpoint == null) {
                break;
            }
            sent += flush.applyAsInt(startpoint);
        }
        return sent;
    }

    /** Whether no startpoint waits here (nor is being flushed by another thread that may add it back). */
    boolean isEmpty() {
        return !mayHaveEntries && size() == 0;
    }

    private int size() {
        synchronized (queue) {
            return queue.size();
        }
    }
}
