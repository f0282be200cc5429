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
 * The float SUM step of a reduction ({@code inout[i] += in[i]}, what allreduce repeats per round), per call of
 * {@code floats} elements: Weft's kernel (chunks copied into {@code float[]} and combined there), the
 * element-by-element loop over the segments it replaced, and a plain loop over {@code float[]}, the floor; and a
 * schedule's first step, copying the send buffer into recv then combining, against combining both into recv. As in a
 * job, each loop has first seen both heap segments (the schedules' {@code byte[]} scratch) and native ones (direct
 * user buffers): the segment loop's accessors then serve both kinds, and C2 no longer vectorises it.
 */
public class ReductionKernelBench extends NanosecondBenchmark {
    private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;

    @Param({"256", "65536", "262144"})
    private int floats;

    private final Combiner kernel =
            PredefinedOp.SUM.bind(TypeDescriptor.predefined("MPI_FLOAT", BaseType.FLOAT, 1));
    private MemorySegment nativeIn;
    private MemorySegment nativeInout;
    private MemorySegment heapIn;
    private float[] arrayIn;
    private float[] arrayInout;

    @Setup
    public void allocate() {
        nativeIn = Arena.ofAuto().allocate(4L * floats, 64);
        nativeInout = Arena.ofAuto().allocate(4L * floats, 64);
        heapIn = MemorySegment.ofArray(new byte[4 * floats]);
        MemorySegment heapInout = MemorySegment.ofArray(new byte[4 * floats]);
        arrayIn = new float[floats];
        arrayInout = new float[floats];
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
        kernel.combine(nativeIn, nativeInout, floats);
    }

    /** Weft's kernel, a heap scratch segment (a received block) into a native one. */
    @Benchmark
    public void kernelHeapIntoNative() {
        kernel.combine(heapIn, nativeInout, floats);
    }

    /**
     * A schedule's step before reductions combined from where their operands lie: copy this rank's send buffer
     * into recv, then combine the received block (heap) into it.
     */
    @Benchmark
    public void copyThenCombine() {
        MemorySegment.copy(nativeIn, 0, nativeInout, 0, 4L * floats);
        kernel.combine(heapIn, nativeInout, floats);
    }

    /** The same step now: the received block and the send buffer combined straight into recv. */
    @Benchmark
    public void combineInto() {
        kernel.combineInto(heapIn, nativeIn, nativeInout, floats);
    }

    /** The kernel before: one loop over the segments, native into native. */
    @Benchmark
    public void segmentLoop() {
        elementLoop(nativeIn, nativeInout, floats);
    }

    /** The floor: a loop over {@code float[]}, which C2 vectorises. */
    @Benchmark
    public void arrayLoop() {
        float[] in = arrayIn;
        float[] io = arrayInout;
        for (int i = 0; i < floats; i++) {
            io[i] = io[i] + in[i];
        }
    }

    private static void elementLoop(MemorySegment in, MemorySegment io, long n) {
        for (long i = 0; i < n; i++) {
            io.setAtIndex(E, i, io.getAtIndex(E, i) + in.getAtIndex(E, i));
        }
    }
}
