package org.weft.bench.jmh;

import java.nio.IntBuffer;
import mpi.MPI;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * {@code MPI.slice} of a direct buffer, which also records the buffer it cuts from
 * ({@code org.weft.core.datatype.EnclosingMemory}), against the JDK's slice it wraps: programs slice per message.
 */
public class SliceBench extends NanosecondBenchmark {
    private final IntBuffer direct = MPI.newIntBuffer(1024);
    private final IntBuffer other = MPI.newIntBuffer(1024);
    private int offset;

    @Benchmark
    public int mpiSlice() {
        offset = (offset + 1) & 511;
        return MPI.slice(direct, offset).get(0);
    }

    /** Two buffers in turn, as a program slicing its send and its receive buffer. */
    @Benchmark
    public int mpiSliceOfTwo() {
        offset = (offset + 1) & 511;
        return MPI.slice((offset & 1) == 0 ? direct : other, offset).get(0);
    }

    @Benchmark
    public int jdkSlice() {
        offset = (offset + 1) & 511;
        return direct.duplicate().clear().position(offset).slice().get(0);
    }
}
