package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * Segments over the origin buffers of one window's direct calls ({@link DirectCalls}), by buffer identity: the two
 * buffers used last. A program puts from and gets into the same one or two buffers over and over; finding their
 * segment is then two comparisons, where the per-thread look-up of {@code BufferMapping} (a thread-local, then
 * four entries keyed by buffer, type and length) was most of an 8-byte put's time. A segment covers the whole
 * buffer from its index 0 (Open MPI's rule: a buffer's position is ignored); a call checks its bytes against it.
 *
 * <p>Threads may share a window: the two fields hold immutable pairs, so a race costs a miss, never a wrong
 * segment. A miss makes a segment and a pair (not in steady state).
 */
final class OriginViews {
    private record View(Buffer buffer, MemorySegment memory) {
    }

    private static final View NONE = new View(null, MemorySegment.NULL);

    private View last = NONE;
    private View beforeLast = NONE;

    /** The segment over {@code buffer}'s whole memory from its index 0. */
    MemorySegment of(Buffer buffer) {
        View view = last;
        if (view.buffer == buffer) {
            return view.memory;
        }
        view = beforeLast;
        if (view.buffer == buffer) {
            return view.memory;
        }
        view = new View(buffer, MemorySegment.ofBuffer(buffer.duplicate().clear()));
        beforeLast = last;
        last = view;
        return view.memory;
    }
}
