package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

/**
 * A view of one double complex number ({@code MPI.DOUBLE_COMPLEX}: real part, then imaginary part) at index
 * {@code i} of a buffer or array of doubles, as Open MPI's {@code mpi.DoubleComplex}. Reads and writes go through
 * to the underlying memory; byte buffers are read in native order.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    /** The complex number at index 0 of {@code buffer}. */
    public static DoubleComplex get(DoubleBuffer buffer) {
        return get(buffer, 0);
    }

    /** The complex number at index {@code index} (that is, doubles {@code 2 index} and {@code 2 index + 1}). */
    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    public static DoubleComplex get(double[] array) {
        return get(array, 0);
    }

    public static DoubleComplex get(double[] array, int index) {
        return get(DoubleBuffer.wrap(array), index);
    }

    public static DoubleComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return get(buffer.duplicate().clear().order(ByteOrder.nativeOrder()).asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(offset);
    }

    public double getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(double real) {
        buffer.put(offset, real);
    }

    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer starting at this number (the whole buffer for index 0). */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.slice(offset, buffer.capacity() - offset);
    }
}
