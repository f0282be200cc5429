package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Predefined operations on {@code int} elements.
 *
 * <p>One loop per operation, the switch outside the loop, so that the JIT compiles each loop on its own and
 * nothing is allocated per element. Unaligned layouts: heap segments over {@code byte[]} scratch
 * buffers are only byte-aligned. Generated; keep the kernels alike.
 */
final class IntKernel {
    private static final ValueLayout.OfInt E = ValueLayout.JAVA_INT_UNALIGNED;

    private IntKernel() {
    }

    /** {@code io[i] = in[i] op io[i]} for {@code n} elements. */
    static void apply(PredefinedOp op, MemorySegment in, MemorySegment io, long n) {
        switch (op) {
            case MAX -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, (Math.max(io.getAtIndex(E, i), in.getAtIndex(E, i))));
                }
            }
            case MIN -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, (Math.min(io.getAtIndex(E, i), in.getAtIndex(E, i))));
                }
            }
            case SUM -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, (io.getAtIndex(E, i) + in.getAtIndex(E, i)));
                }
            }
            case PROD -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, (io.getAtIndex(E, i) * in.getAtIndex(E, i)));
                }
            }
            case LAND -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, ((io.getAtIndex(E, i) != 0 & in.getAtIndex(E, i) != 0) ? 1 : 0));
                }
            }
            case BAND -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, (io.getAtIndex(E, i) & in.getAtIndex(E, i)));
                }
            }
            case LOR -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, ((io.getAtIndex(E, i) != 0 | in.getAtIndex(E, i) != 0) ? 1 : 0));
                }
            }
            case BOR -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, (io.getAtIndex(E, i) | in.getAtIndex(E, i)));
                }
            }
            case LXOR -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, ((io.getAtIndex(E, i) != 0 ^ in.getAtIndex(E, i) != 0) ? 1 : 0));
                }
            }
            case BXOR -> {
                for (long i = 0; i < n; i++) {
                    io.setAtIndex(E, i, (io.getAtIndex(E, i) ^ in.getAtIndex(E, i)));
                }
            }
            default -> throw new IllegalArgumentException(op + " on int");
        }
    }
}
