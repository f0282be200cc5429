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

    /**
     * {@code out[i] = in[i] op inout[i]} for {@code count} items: a reduction straight from the operands where they
     * lie (the user's send buffer, a received block) into the result's place, without first copying one operand
     * there. The predefined operations' kernels read both and write {@code out} chunk by chunk; this default, for
     * the others, copies {@code inout} to {@code out} and combines there. {@code out} is {@code inout}, {@code in},
     * or disjoint from both; {@code in} is never written, {@code inout} only when {@code out} is {@code in} (then
     * the default combines into {@code inout} and copies the result: pass a scratch segment there).
     */
    default void combineInto(MemorySegment in, MemorySegment inout, MemorySegment out, int count) {
        long bytes = Math.min(inout.byteSize(), out.byteSize());
        if (out.equals(inout)) {
            combine(in, inout, count);
        } else if (out.equals(in)) {
            combine(in, inout, count);
            MemorySegment.copy(inout, 0, out, 0, bytes);
        } else {
            MemorySegment.copy(inout, 0, out, 0, bytes);
            combine(in, out, count);
        }
    }
}
