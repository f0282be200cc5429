package org.weft.core.datatype;

/**
 * The layout of a pair type ({@code MPI_2INT}, {@code MPI_SHORT_INT}, {@code MPI_LONG_INT},
 * {@code MPI_FLOAT_INT}, {@code MPI_DOUBLE_INT}), which {@code MINLOC}/{@code MAXLOC} reduce.
 *
 * <p>In the user's buffer (a {@code byte[]} or {@code ByteBuffer}, read through {@code mpi.DoubleInt} etc.) a
 * record is laid out as Open MPI's C struct: the value at byte 0, the {@code int} index at
 * {@link #indexOffset()} (aligned to 4), the record padded to {@link #extent()} bytes (the alignment of its
 * largest member); native byte order.
 *
 * <pre>
 *   MPI_2INT, MPI_FLOAT_INT  value 0..3, index 4..7                  extent 8   packed 8
 *   MPI_SHORT_INT            value 0..1, pad 2..3, index 4..7        extent 8   packed 6
 *   MPI_LONG_INT, DOUBLE_INT value 0..7, index 8..11, pad 12..15     extent 16  packed 12
 * </pre>
 *
 * <p>On the wire and in every segment a reduction sees (the <em>packed</em> form), padding is dropped: a record
 * is the value followed at once by the index, {@link #packedIndexOffset()} = value bytes, records of
 * {@link #packedBytes()} = {@code TypeDescriptor.byteSize()} bytes, unaligned.
 *
 * @param value       the value's type
 * @param indexOffset byte offset of the index in the user's buffer record
 * @param extent      bytes of one record in the user's buffer
 */
public record PairLayout(BaseType value, int indexOffset, int extent) {
    /** The C layout of a (value, int) struct. */
    static PairLayout of(BaseType value) {
        int alignment = Math.max(value.bytes(), Integer.BYTES);
        int indexOffset = alignUp(value.bytes(), Integer.BYTES);
        return new PairLayout(value, indexOffset, alignUp(indexOffset + Integer.BYTES, alignment));
    }

    /** Offset of the index in a packed record. */
    public int packedIndexOffset() {
        return value.bytes();
    }

    /** Bytes of a packed record. */
    public int packedBytes() {
        return value.bytes() + Integer.BYTES;
    }

    /** The typemap of one record: the value, then the index. */
    Typemap typemap() {
        return new TypemapBuilder().add(0, value.bytes(), value.bytes()).add(indexOffset, Integer.BYTES,
                Integer.BYTES).build();
    }

    static int alignUp(int value, int alignment) {
        return (value + alignment - 1) / alignment * alignment;
    }
}
