package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Predefined operations on {@code float} elements.
 *
 * <p>The operands go through {@link KernelScratch}'s per-thread chunks: bulk copies in, one plain loop per
 * operation over the arrays (the switch outside the loop, so that C2 compiles and vectorises each loop on its own),
 * a bulk copy out; nothing is allocated. Unaligned layouts: heap segments over {@code byte[]} scratch buffers are
 * only byte-aligned. Generated; keep the kernels alike.
 */
final class FloatKernel {
    private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final int CHUNK = KernelScratch.CHUNK_BYTES / Float.BYTES;

    private FloatKernel() {
    }

    /** {@code out[i] = in[i] op io[i]} for {@code n} elements ({@code out} may be {@code in} or {@code io}). */
    static void apply(PredefinedOp op, MemorySegment in, MemorySegment io, MemorySegment out, long n) {
        KernelScratch scratch = KernelScratch.get();
        float[] a = scratch.floatIn;
        float[] b = scratch.floatInout;
        for (long at = 0; at < n; at += CHUNK) {
            int m = (int) Math.min(CHUNK, n - at);
            long offset = at * Float.BYTES;
            MemorySegment.copy(in, E, offset, a, 0, m);
            MemorySegment.copy(io, E, offset, b, 0, m);
            combine(op, a, b, m);
            MemorySegment.copy(b, 0, out, E, offset, m);
        }
    }

    private static void combine(PredefinedOp op, float[] in, float[] io, int m) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < m; i++) {
                    io[i] = Math.max(io[i], in[i]);
                }
            }
            case MIN -> {
                for (int i = 0; i < m; i++) {
                    io[i] = Math.min(io[i], in[i]);
                }
            }
            case SUM -> {
                for (int i = 0; i < m; i++) {
                    io[i] = io[i] + in[i];
                }
            }
            case PROD -> {
                for (int i = 0; i < m; i++) {
                    io[i] = io[i] * in[i];
                }
            }
            default -> throw new IllegalArgumentException(op + " on float");
        }
    }
}
