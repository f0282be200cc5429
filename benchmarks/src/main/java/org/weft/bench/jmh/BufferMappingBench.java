package org.weft.bench.jmh;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import mpi.MPI;
import org.openjdk.jmh.annotations.Benchmark;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;

/**
 * Mapping a user buffer to the segment a send reads ({@link BufferMapping#forSend}: the argument checks and the
 * per-thread view), for the zero-copy pairs every message takes: an {@code int[]} with {@code MPI_INT}, a direct
 * buffer with {@code MPI_BYTE}.
 */
public class BufferMappingBench extends NanosecondBenchmark {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final TypeDescriptor BYTE = TypeDescriptor.predefined("MPI_BYTE", BaseType.BYTE, 1);
    private final int[] ints = new int[64];
    private final ByteBuffer direct = MPI.newByteBuffer(256);

    @Benchmark
    public MemorySegment intArray() {
        return BufferMapping.forSend(ints, 64, INT);
    }

    @Benchmark
    public MemorySegment directBuffer() {
        return BufferMapping.forSend(direct, 256, BYTE);
    }
}
