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
    private final Object[] buffers = new Object[SIZE];
    private final Object[] types = new Object[SIZE];
    private final long[] lengths = new long[SIZE];
    private final MemorySegment[] segments = new MemorySegment[SIZE];
    private int next;

    /** The remembered segment for this key, or {@code null}. */
    MemorySegment find(Object buffer, Object type, long length) {
        for (int i = 0; i < SIZE; i++) {
            if (buffers[i] == buffer && types[i] == type && lengths[i] == length) {
                return segments[i];
            }
        }
        return null;
    }

    /** Remembers {@code segment} in place of the oldest entry. */
    void remember(Object buffer, Object type, long length, MemorySegment segment) {
        buffers[next] = buffer;
        types[next] = type;
        lengths[next] = length;
        segments[next] = segment;
        next = (next + 1) % SIZE;
    }
}
