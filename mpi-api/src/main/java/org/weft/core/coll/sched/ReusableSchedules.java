package org.weft.core.coll.sched;

/**
 * The schedules a communicator's blocking collectives built, kept to run again when the same collective is called
 * with the same arguments — as an iterative program calls its allreduce or barrier every step — instead of building
 * one per call (MPI-4's persistent collectives, made implicit). A schedule reads its buffers when it runs, not when
 * it is built, so the same buffers, counts, type, operation and root give the same schedule; only a schedule that
 * staged nothing at build time (a non-contiguous type or a {@code boolean[]} is packed then) and whose buffers are
 * small ({@link #MOST_BYTES_HELD}) is kept.
 *
 * <p>An entry is busy from {@link #take} or {@link #add} until {@link #finished}, so a schedule never runs twice at
 * once; a schedule that failed is dropped. Buffers are compared by identity, as the schedule holds views of them.
 * At most {@link #SIZE} entries; a new one replaces the idle one used longest ago.
 */
public final class ReusableSchedules {
    /** The collectives whose schedules are kept. */
    public enum Kind { BARRIER, BCAST, REDUCE, ALLREDUCE }

    static final int SIZE = 8;
    /**
     * The largest user buffer a kept schedule may hold: it keeps the buffer reachable as long as it is kept, so a
     * program that reduces a large array once and drops it must not find the array still held. The saving is in
     * small collectives anyway, whose building is a sizeable part of the call.
     */
    public static final long MOST_BYTES_HELD = 64 * 1024;

    /** Arguments and schedule of one kept collective; mutable so that a hit allocates nothing. */
    private static final class Entry {
        Kind kind;
        Object first;
        Object second;
        int count;
        Object type;
        Object op;
        int root;
        Schedule schedule;
        boolean busy;
        /** When it was last taken or added, on {@link #clock}. */
        long used;

        boolean matches(Kind kind, Object first, Object second, int count, Object type, Object op, int root) {
            return this.kind == kind && this.first == first && this.second == second && this.count == count
                    && this.type == type && this.op == op && this.root == root;
        }
    }

    private final Entry[] entries = new Entry[SIZE];
    private long clock;

    /** A kept schedule built for these arguments, marked busy (to be restarted), or {@code null} if none is idle. */
    public synchronized Schedule take(Kind kind, Object first, Object second, int count, Object type, Object op,
                                      int root) {
        for (Entry e : entries) {
            if (e != null && !e.busy && e.matches(kind, first, second, count, type, op, root)) {
                e.busy = true;
                e.used = ++clock;
                return e.schedule;
            }
        }
        return null;
    }

    /** Keeps {@code schedule}, just built for these arguments and about to run, as busy (unless all are busy). */
    public synchronized void add(Kind kind, Object first, Object second, int count, Object type, Object op, int root,
                                 Schedule schedule) {
        Entry e = replaceable();
        if (e == null) {
            return;
        }
        e.kind = kind;
        e.first = first;
        e.second = second;
        e.count = count;
        e.type = type;
        e.op = op;
        e.root = root;
        e.schedule = schedule;
        e.busy = true;
        e.used = ++clock;
    }

    /** A free slot's new entry, or the idle entry used longest ago; {@code null} when every entry is busy. */
    private Entry replaceable() {
        Entry oldest = null;
        for (int slot = 0; slot < SIZE; slot++) {
            Entry e = entries[slot];
            if (e == null) {
                e = new Entry();
                entries[slot] = e;
                return e;
            }
            if (!e.busy && (oldest == null || e.used < oldest.used)) {
                oldest = e;
            }
        }
        return oldest;
    }

    /**
     * {@code schedule} has run: its entry, if it has one, is idle again — or dropped, with the buffers it holds,
     * unless the schedule ran to its end without error (one that failed or was left part-way may still have
     * transfers in flight).
     */
    public synchronized void finished(Schedule schedule) {
        for (int slot = 0; slot < SIZE; slot++) {
            Entry e = entries[slot];
            if (e != null && e.schedule == schedule) {
                if (schedule.succeeded()) {
                    e.busy = false;
                } else {
                    entries[slot] = null;
                }
                return;
            }
        }
    }
}
