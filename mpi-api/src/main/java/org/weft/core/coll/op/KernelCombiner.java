package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;

/**
 * A predefined operation bound to one of the chunked kernels ({@link FloatKernel}, {@link IntKernel}, ...): both
 * forms of {@link Combiner} go straight to the kernel, which writes its result chunk by chunk wherever it is told,
 * so {@link #combineInto} copies nothing first.
 *
 * @param op        the operation
 * @param kernel    the element type's kernel
 * @param perItem   elements per item (2 for the complex types' sums, which are sums of their parts)
 */
record KernelCombiner(PredefinedOp op, Kernel kernel, int perItem) implements Combiner {
    /** A chunked kernel: {@code out[i] = in[i] op io[i]} for {@code n} elements. */
    @FunctionalInterface
    interface Kernel {
        void apply(PredefinedOp op, MemorySegment in, MemorySegment io, MemorySegment out, long n);
    }

    KernelCombiner(PredefinedOp op, Kernel kernel) {
        this(op, kernel, 1);
    }

    @Override
    public void combine(MemorySegment in, MemorySegment inout, int count) {
        kernel.apply(op, in, inout, inout, (long) perItem * count);
    }

    @Override
    public void combineInto(MemorySegment in, MemorySegment inout, MemorySegment out, int count) {
        kernel.apply(op, in, inout, out, (long) perItem * count);
    }
}
