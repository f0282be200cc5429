package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * Segments over the origin buffers of one window's direct calls ({@link DirectCalls}), by buffer identity: the four
 * buffers used last. A program puts from and gets into the same one or two buffers over and over; finding their
 * segment is then a comparison or few, where the per-thread look-up of {@code BufferMapping} (a thread-local, then
 * four entries keyed by buffer, type and length) was most of an 8-byte put's time. A segment covers the whole
 * buffer from its index 0 (Open MPI's rule: a buffer's position is ignored); a call checks its bytes against it.
 *
 * <p>Threads may share a window: the entries are immutable pairs, so a race costs a miss, never a wrong
 * segment. A miss makes a segment and a pair (not in steady state).
 */
final class OriginViews {
    private record View(Buffer buffer, MemorySegment memory) {
    }

    /** Buffers remembered: a compare-and-swap uses three. */
    private static final int SIZE = 4;
    private static final View NONE = new View(null, MemorySegment.NULL);

    private final View[] views = {NONE, NONE, NONE, NONE};
    private int next;

    /** The segment over {@code buffer}'s whole memory from its index 0. */
    MemorySegment of(Buffer buffer) {
        for (View view : views) {
            if (view.buffer == buffer) {
                return view.memory;
            }
        }
        View view = new View(buffer, MemorySegment.ofBuffer(buffer.duplicate().clear()));
        int at = next;
        views[at] = view;
        next = (at + 1) % SIZE;
        return view.memory;
    }
}
