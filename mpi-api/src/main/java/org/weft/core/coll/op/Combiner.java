package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;

/**
 * A reduction operation bound to one datatype: the step that reductions repeat. MPI's order is kept:
 * {@code inout[i] = in[i] op inout[i]}, where {@code in} holds the contribution of the lower ranks when the
 * caller keeps rank order (non-commutative operations rely on that).
 *
 * <p>Segments hold items as they lie on the wire (little-endian, {@code boolean} as one byte 0/1), are at least
 * {@code count} items long and may be heap segments of any alignment. A combiner may keep scratch space between
 * calls, so one instance serves one collective call on one thread.
 */
@FunctionalInterface
public interface Combiner {
    /** Combines {@code count} items of {@code in} into {@code inout}. */
    void combine(MemorySegment in, MemorySegment inout, int count);
}
