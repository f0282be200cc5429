package org.weft.core.datatype;

import java.lang.foreign.MemorySegment;

/**
 * The segments a thread made last, by buffer identity, datatype identity and length. Programs send and receive
 * from the same few buffers over and over, and neither a view of a buffer nor the staging for a (buffer, type,
 * count) needs to change between messages, so each thread remembers its last few instead of making new ones per
 * message (garbage whose collections showed up as latency spikes). A cache with no meaning of its own; it keeps
 * at most {@link #SIZE} buffers (and their staging) of each thread reachable until replaced.
 */
final class RecentSegments {
    static final int SIZE = 4;

    private record Entry(Object buffer, Object type, long length, MemorySegment segment) {
    }

    private final Entry[] entries = new Entry[SIZE];
    private int next;

    /** The remembered segment for this key, or {@code null}. */
    MemorySegment find(Object buffer, Object type, long length) {
        for (Entry e : entries) {
            if (e != null && e.buffer == buffer && e.type == type && e.length == length) {
                return e.segment;
            }
        }
        return null;
    }

    /** Remembers {@code segment} in place of the oldest entry. */
    void remember(Object buffer, Object type, long length, MemorySegment segment) {
        entries[next] = new Entry(buffer, type, length, segment);
        next = (next + 1) % SIZE;
    }
}
