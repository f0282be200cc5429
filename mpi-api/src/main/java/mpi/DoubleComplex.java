package mpi;

/** DoubleComplex of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class DoubleComplex {
    DoubleComplex() {
    }

    /** {@code MPI_DoubleComplex_get} (not implemented in Weft yet). */
    public static DoubleComplex get(java.nio.DoubleBuffer arg) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get} (not implemented in Weft yet). */
    public static DoubleComplex get(java.nio.DoubleBuffer arg, int value) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get} (not implemented in Weft yet). */
    public static DoubleComplex get(double[] arg) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get} (not implemented in Weft yet). */
    public static DoubleComplex get(double[] arg, int value) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get} (not implemented in Weft yet). */
    public static DoubleComplex get(java.nio.ByteBuffer arg) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get} (not implemented in Weft yet). */
    public static DoubleComplex get(java.nio.ByteBuffer arg, int value) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get_real} (not implemented in Weft yet). */
    public double getReal() {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get_real is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get_imag} (not implemented in Weft yet). */
    public double getImag() {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get_imag is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_put_real} (not implemented in Weft yet). */
    public void putReal(double arg) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_put_real is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_put_imag} (not implemented in Weft yet). */
    public void putImag(double arg) {
        throw new UnsupportedOperationException("MPI_DoubleComplex_put_imag is not implemented in Weft yet");
    }

    /** {@code MPI_DoubleComplex_get_buffer} (not implemented in Weft yet). */
    public java.nio.DoubleBuffer getBuffer() {
        throw new UnsupportedOperationException("MPI_DoubleComplex_get_buffer is not implemented in Weft yet");
    }
}
