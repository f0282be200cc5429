package org.weft.core.coll.sched;

/**
 * The schedules a communicator's blocking collectives built, kept to run again when the same collective is called
 * with the same arguments — as an iterative program calls its allreduce or barrier every step — instead of building
 * one per call (MPI-4's persistent collectives, made implicit). A schedule reads its buffers when it runs, not when
 * it is built, so the same buffers, counts, type, operation and root give the same schedule; only a schedule that
 * staged nothing at build time (a non-contiguous type or a {@code boolean[]} is packed then) and whose buffers are
 * at most {@link #MOST_BYTES_HELD} each is kept, and the communicator's kept schedules hold at most
 * {@link #MOST_BYTES_HELD_IN_ALL} of user buffers between them (the idle entries used longest ago make room).
 *
 * <p>An entry is busy from {@link #take} or {@link #add} until {@link #finished}, so a schedule never runs twice at
 * once; a schedule that failed is dropped. Buffers are compared by identity, as the schedule holds views of them.
 * At most {@link #SIZE} entries; a new one replaces the idle one used longest ago.
 */
public final class ReusableSchedules {
    /**
     * The collectives whose schedules are kept, and what their arguments are in a key (buffers {@code a},
     * {@code b}; types or operation {@code c}, {@code d}; counts and root {@code x}, {@code y}, {@code z}); unused
     * parts are {@code null} or 0.
     */
    public enum Kind {
        /** No arguments. */
        BARRIER,
        /** a buffer, c type, x count, z root. */
        BCAST,
        /** a send buffer, b receive buffer, c type, d operation, x count, z root. */
        REDUCE,
        /** a send buffer, b receive buffer, c type, d operation, x count. */
        ALLREDUCE,
        /** a send buffer, b receive buffer, c send type, d receive type, x send count, y receive count. */
        ALLGATHER,
        /** a send buffer, b receive buffer, c send type, d receive type, x send count, y receive count. */
        ALLTOALL,
        /** a send buffer, b receive buffer, c send type, d receive type, x send count, y receive count, z root. */
        GATHER,
        /** a send buffer, b receive buffer, c send type, d receive type, x send count, y receive count, z root. */
        SCATTER,
        /** a send buffer, b receive buffer, c type, d operation, x count, y 1 for an exclusive scan. */
        SCAN,
        /** a send buffer, b receive buffer, c type, d operation, x count (each rank's block). */
        REDUCE_SCATTER_BLOCK
    }

    /**
     * Entries per communicator: a loop that cycles through more distinct collectives than this finds none kept (the
     * least recently used is always the next wanted), and builds per call as before.
     */
    static final int SIZE = 16;
    /**
     * The largest user buffer a kept schedule may hold: it keeps the buffer reachable as long as it is kept. Large
     * enough for the buffers programs preallocate for their largest message (an OSU-style benchmark's 1 MiB a rank
     * on a few ranks), whose small messages then run kept schedules: building one costs about twice what running it
     * does (a 4-byte gather on 2 ranks: 0.98–1.15 µs built per call, 0.36–0.39 kept; docs/performance.md).
     */
    public static final long MOST_BYTES_HELD = 4L << 20;
    /**
     * The most user buffer bytes one communicator's kept schedules hold between them, so that a program that
     * reduced large arrays once and dropped them finds at most this much still held.
     */
    public static final long MOST_BYTES_HELD_IN_ALL = 16L << 20;

    /** Key (see {@link Kind}) and schedule of one kept collective; mutable so that a hit allocates nothing. */
    private static final class Entry {
        Kind kind;
        Object a;
        Object b;
        Object c;
        Object d;
        int x;
        int y;
        int z;
        Schedule schedule;
        /** Bytes of the user buffers the schedule holds. */
        long held;
        boolean busy;
        /** When it was last taken or added, on {@link #clock}. */
        long used;

        boolean matches(Kind kind, Object a, Object b, Object c, Object d, int x, int y, int z) {
            return this.kind == kind && this.a == a && this.b == b && this.c == c && this.d == d && this.x == x
                    && this.y == y && this.z == z;
        }
    }

    private final Entry[] entries = new Entry[SIZE];
    private long clock;
    /** Sum of the entries' {@link Entry#held}. */
    private long heldInAll;

    /** A kept schedule built for these arguments, marked busy (to be restarted), or {@code null} if none is idle. */
    public synchronized Schedule take(Kind kind, Object a, Object b, Object c, Object d, int x, int y, int z) {
        for (Entry e : entries) {
            if (e != null && !e.busy && e.matches(kind, a, b, c, d, x, y, z)) {
                e.busy = true;
                e.used = ++clock;
                return e.schedule;
            }
        }
        return null;
    }

    /**
     * Keeps {@code schedule}, just built for these arguments and about to run and holding {@code held} bytes of user
     * buffers, as busy — unless every entry is busy, or the idle ones do not free room enough.
     */
    public synchronized void add(Kind kind, Object a, Object b, Object c, Object d, int x, int y, int z,
                                 Schedule schedule, long held) {
        Entry e = replaceable();
        if (e == null || held > MOST_BYTES_HELD_IN_ALL) {
            return;
        }
        drop(e);
        while (heldInAll + held > MOST_BYTES_HELD_IN_ALL) {
            Entry victim = idleUsedLongestAgo(e);
            if (victim == null) {
                return;
            }
            drop(victim);
        }
        e.kind = kind;
        e.a = a;
        e.b = b;
        e.c = c;
        e.d = d;
        e.x = x;
        e.y = y;
        e.z = z;
        e.schedule = schedule;
        e.held = held;
        heldInAll += held;
        e.busy = true;
        e.used = ++clock;
    }

    /**
     * A free slot's new entry, an emptied entry, or the idle entry used longest ago; {@code null} when every entry is
     * busy.
     */
    private Entry replaceable() {
        for (int slot = 0; slot < SIZE; slot++) {
            Entry e = entries[slot];
            if (e == null) {
                entries[slot] = new Entry();
                return entries[slot];
            }
            if (!e.busy && e.schedule == null) {
                return e;
            }
        }
        return idleUsedLongestAgo(null);
    }

    /** The idle entry holding a schedule, other than {@code except}, used longest ago; {@code null} if none. */
    private Entry idleUsedLongestAgo(Entry except) {
        Entry oldest = null;
        for (Entry e : entries) {
            boolean idle = e != null && e != except && !e.busy && e.schedule != null;
            if (idle && (oldest == null || e.used < oldest.used)) {
                oldest = e;
            }
        }
        return oldest;
    }

    /** Empties {@code e}: it matches nothing and holds nothing. */
    private void drop(Entry e) {
        heldInAll -= e.held;
        e.held = 0;
        e.kind = null;
        e.a = null;
        e.b = null;
        e.c = null;
        e.d = null;
        e.schedule = null;
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
                e.busy = false;
                if (!schedule.succeeded()) {
                    drop(e);
                }
                return;
            }
        }
    }
}
