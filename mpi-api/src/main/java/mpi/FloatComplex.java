package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * A view of one float complex number ({@code MPI.FLOAT_COMPLEX}: real part, then imaginary part) at index
 * {@code i} of a buffer or array of floats, as Open MPI's {@code mpi.FloatComplex}. Reads and writes go through
 * to the underlying memory; byte buffers are read in native order.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    /** The complex number at index 0 of {@code buffer}. */
    public static FloatComplex get(FloatBuffer buffer) {
        return get(buffer, 0);
    }

    /** The complex number at index {@code index} (that is, floats {@code 2 index} and {@code 2 index + 1}). */
    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return get(array, 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return get(FloatBuffer.wrap(array), index);
    }

    public static FloatComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return get(buffer.duplicate().clear().order(ByteOrder.nativeOrder()).asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(offset);
    }

    public float getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(float real) {
        buffer.put(offset, real);
    }

    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer starting at this number (the whole buffer for index 0). */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.slice(offset, buffer.capacity() - offset);
    }
}
