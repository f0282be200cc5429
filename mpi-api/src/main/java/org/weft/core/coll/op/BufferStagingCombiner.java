package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.weft.core.datatype.TypeDescriptor;

/**
 * Runs a user reduction that takes direct byte buffers (the {@code ByteBuffer} form of
 * {@code mpi.UserFunction.call}, which Open MPI's bindings call for direct-buffer collectives): the operands are
 * copied into two native-order direct buffers, allocated on the first call and reused, and the result is
 * copied back.
 */
public final class BufferStagingCombiner implements Combiner {
    /** A user function over byte buffers: combines {@code count} items of {@code in} into {@code inout}. */
    @FunctionalInterface
    public interface BufferFunction {
        void apply(ByteBuffer in, ByteBuffer inout, int count);
    }

    private final TypeDescriptor type;
    private final BufferFunction function;
    private ByteBuffer inBuffer;
    private ByteBuffer inoutBuffer;

    public BufferStagingCombiner(TypeDescriptor type, BufferFunction function) {
        this.type = type;
        this.function = function;
    }

    @Override
    public void combine(MemorySegment in, MemorySegment inout, int count) {
        int bytes = count * type.byteSize();
        if (inBuffer == null || inBuffer.capacity() < bytes) {
            inBuffer = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
            inoutBuffer = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        }
        MemorySegment inView = MemorySegment.ofBuffer(inBuffer.clear());
        MemorySegment inoutView = MemorySegment.ofBuffer(inoutBuffer.clear());
        MemorySegment.copy(in, 0, inView, 0, bytes);
        MemorySegment.copy(inout, 0, inoutView, 0, bytes);
        function.apply(inBuffer.clear().limit(bytes), inoutBuffer.clear().limit(bytes), count);
        MemorySegment.copy(inoutView, 0, inout, 0, bytes);
    }
}
