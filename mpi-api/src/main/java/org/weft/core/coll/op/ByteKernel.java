package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Predefined operations on {@code byte} elements. Also serves {@code BOOLEAN} (one byte, 0 or 1)
 * for the logical operations.
 *
 * <p>As {@link FloatKernel}: the operands go through {@link KernelScratch}'s per-thread chunks (bulk copies in, one
 * plain loop per operation over the arrays, which C2 vectorises, a bulk copy out); nothing is allocated. The logical
 * operations compute 0 or 1 without branches ({@code nonZero}), so that their loops vectorise too. Unaligned
 * layouts: heap segments over {@code byte[]} scratch buffers are only byte-aligned. Generated; keep the kernels alike.
 */
final class ByteKernel {
    private static final ValueLayout.OfByte E = ValueLayout.JAVA_BYTE;
    private static final int CHUNK = KernelScratch.CHUNK_BYTES / Byte.BYTES;

    private ByteKernel() {
    }

    /** {@code out[i] = in[i] op io[i]} for {@code n} elements ({@code out} may be {@code in} or {@code io}). */
    static void apply(PredefinedOp op, MemorySegment in, MemorySegment io, MemorySegment out, long n) {
        KernelScratch scratch = KernelScratch.get();
        byte[] a = scratch.byteIn;
        byte[] b = scratch.byteInout;
        for (long at = 0; at < n; at += CHUNK) {
            int m = (int) Math.min(CHUNK, n - at);
            long offset = at * Byte.BYTES;
            MemorySegment.copy(in, E, offset, a, 0, m);
            MemorySegment.copy(io, E, offset, b, 0, m);
            combine(op, a, b, m);
            MemorySegment.copy(b, 0, out, E, offset, m);
        }
    }

    /** 1 if {@code x != 0}, else 0: the sign bit of {@code x | -x}, set exactly when {@code x} is not 0. */
    private static int nonZero(int x) {
        return (x | -x) >>> 31;
    }

    private static void combine(PredefinedOp op, byte[] in, byte[] io, int m) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (Math.max(io[i], in[i]));
                }
            }
            case MIN -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (Math.min(io[i], in[i]));
                }
            }
            case SUM -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (io[i] + in[i]);
                }
            }
            case PROD -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (io[i] * in[i]);
                }
            }
            case LAND -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (nonZero(io[i]) & nonZero(in[i]));
                }
            }
            case BAND -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (io[i] & in[i]);
                }
            }
            case LOR -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (nonZero(io[i] | in[i]));
                }
            }
            case BOR -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (io[i] | in[i]);
                }
            }
            case LXOR -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (nonZero(io[i]) ^ nonZero(in[i]));
                }
            }
            case BXOR -> {
                for (int i = 0; i < m; i++) {
                    io[i] = (byte) (io[i] ^ in[i]);
                }
            }
        }
    }
}
