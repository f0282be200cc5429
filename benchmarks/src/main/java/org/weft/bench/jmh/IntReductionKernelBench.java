package org.weft.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;

/**
 * The int step of a reduction, SUM and LAND (whose 0-or-1 result the kernels compute without a branch), per call
 * of {@code ints} elements, as {@link ReductionKernelBench} does for floats: Weft's chunked kernel (native into
 * native, and a heap block into native), the element loop over the segments the integer kernels were before, and
 * a plain loop over {@code int[]}, the floor. Each loop has first seen heap and native segments, as in a job.
 */
public class IntReductionKernelBench extends NanosecondBenchmark {
    private static final ValueLayout.OfInt E = ValueLayout.JAVA_INT_UNALIGNED;

    @Param({"SUM", "LAND"})
    private PredefinedOp op;

    @Param({"256", "65536"})
    private int ints;

    private Combiner kernel;
    private MemorySegment nativeIn;
    private MemorySegment nativeInout;
    private MemorySegment heapIn;
    private int[] arrayIn;
    private int[] arrayInout;

    @Setup
    public void allocate() {
        kernel = op.bind(TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1));
        nativeIn = Arena.ofAuto().allocate(4L * ints, 64);
        nativeInout = Arena.ofAuto().allocate(4L * ints, 64);
        heapIn = MemorySegment.ofArray(new byte[4 * ints]);
        MemorySegment heapInout = MemorySegment.ofArray(new byte[4 * ints]);
        arrayIn = new int[ints];
        arrayInout = new int[ints];
        for (int i = 0; i < ints; i++) {
            arrayIn[i] = i % 3;
            nativeIn.setAtIndex(E, i, i % 3);
        }
        for (int i = 0; i < 20_000; i++) {
            elementLoop(heapIn, heapInout, 64);
            elementLoop(nativeIn, heapInout, 64);
            kernel.combine(heapIn, heapInout, 64);
            kernel.combine(nativeIn, heapInout, 64);
        }
    }

    /** Weft's kernel, native into native (direct buffers on both sides). */
    @Benchmark
    public void kernel() {
        kernel.combine(nativeIn, nativeInout, ints);
    }

    /** Weft's kernel, a heap scratch segment (a received block) into a native one. */
    @Benchmark
    public void kernelHeapIntoNative() {
        kernel.combine(heapIn, nativeInout, ints);
    }

    /** The kernel before: one loop over the segments, native into native (LAND as a conditional). */
    @Benchmark
    public void segmentLoop() {
        elementLoop(nativeIn, nativeInout, ints);
    }

    /** The floor: a loop over {@code int[]} (LAND without a branch, as the kernel's). */
    @Benchmark
    public void arrayLoop() {
        int[] in = arrayIn;
        int[] io = arrayInout;
        if (op == PredefinedOp.SUM) {
            for (int i = 0; i < ints; i++) {
                io[i] = io[i] + in[i];
            }
        } else {
            for (int i = 0; i < ints; i++) {
                io[i] = ((io[i] | -io[i]) >>> 31) & ((in[i] | -in[i]) >>> 31);
            }
        }
    }

    private void elementLoop(MemorySegment in, MemorySegment io, long n) {
        if (op == PredefinedOp.SUM) {
            for (long i = 0; i < n; i++) {
                io.setAtIndex(E, i, io.getAtIndex(E, i) + in.getAtIndex(E, i));
            }
        } else {
            for (long i = 0; i < n; i++) {
                io.setAtIndex(E, i, (io.getAtIndex(E, i) != 0 & in.getAtIndex(E, i) != 0) ? 1 : 0);
            }
        }
    }
}
