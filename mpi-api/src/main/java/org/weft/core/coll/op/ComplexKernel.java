package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Products of complex numbers ({@code FLOAT_COMPLEX}, {@code DOUBLE_COMPLEX}: pairs re, im). Sums of complex
 * numbers are sums of their parts and go through {@link FloatKernel} and {@link DoubleKernel}.
 */
final class ComplexKernel {
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private ComplexKernel() {
    }

    /** {@code io[k] = in[k] * io[k]} for {@code n} complex floats. */
    static void floatProduct(MemorySegment in, MemorySegment io, long n) {
        for (long k = 0; k < n; k++) {
            float a = in.getAtIndex(F, 2 * k);
            float b = in.getAtIndex(F, 2 * k + 1);
            float c = io.getAtIndex(F, 2 * k);
            float d = io.getAtIndex(F, 2 * k + 1);
            io.setAtIndex(F, 2 * k, a * c - b * d);
            io.setAtIndex(F, 2 * k + 1, a * d + b * c);
        }
    }

    /** {@code io[k] = in[k] * io[k]} for {@code n} complex doubles. */
    static void doubleProduct(MemorySegment in, MemorySegment io, long n) {
        for (long k = 0; k < n; k++) {
            double a = in.getAtIndex(D, 2 * k);
            double b = in.getAtIndex(D, 2 * k + 1);
            double c = io.getAtIndex(D, 2 * k);
            double d = io.getAtIndex(D, 2 * k + 1);
            io.setAtIndex(D, 2 * k, a * c - b * d);
            io.setAtIndex(D, 2 * k + 1, a * d + b * c);
        }
    }
}
