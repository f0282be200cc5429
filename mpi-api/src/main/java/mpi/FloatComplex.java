package mpi;

/** FloatComplex of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class FloatComplex {
    FloatComplex() {
    }

    /** {@code MPI_FloatComplex_get} (not implemented in Weft yet). */
    public static FloatComplex get(java.nio.FloatBuffer arg) {
        throw new UnsupportedOperationException("MPI_FloatComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get} (not implemented in Weft yet). */
    public static FloatComplex get(java.nio.FloatBuffer arg, int value) {
        throw new UnsupportedOperationException("MPI_FloatComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get} (not implemented in Weft yet). */
    public static FloatComplex get(float[] arg) {
        throw new UnsupportedOperationException("MPI_FloatComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get} (not implemented in Weft yet). */
    public static FloatComplex get(float[] arg, int value) {
        throw new UnsupportedOperationException("MPI_FloatComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get} (not implemented in Weft yet). */
    public static FloatComplex get(java.nio.ByteBuffer arg) {
        throw new UnsupportedOperationException("MPI_FloatComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get} (not implemented in Weft yet). */
    public static FloatComplex get(java.nio.ByteBuffer arg, int value) {
        throw new UnsupportedOperationException("MPI_FloatComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get_real} (not implemented in Weft yet). */
    public float getReal() {
        throw new UnsupportedOperationException("MPI_FloatComplex_get_real is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get_imag} (not implemented in Weft yet). */
    public float getImag() {
        throw new UnsupportedOperationException("MPI_FloatComplex_get_imag is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_put_real} (not implemented in Weft yet). */
    public void putReal(float arg) {
        throw new UnsupportedOperationException("MPI_FloatComplex_put_real is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_put_imag} (not implemented in Weft yet). */
    public void putImag(float arg) {
        throw new UnsupportedOperationException("MPI_FloatComplex_put_imag is not implemented in Weft yet");
    }

    /** {@code MPI_FloatComplex_get_buffer} (not implemented in Weft yet). */
    public java.nio.FloatBuffer getBuffer() {
        throw new UnsupportedOperationException("MPI_FloatComplex_get_buffer is not implemented in Weft yet");
    }
}
