package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A Java description of a C struct, to send arrays of records through a {@code ByteBuffer} (Open MPI's
 * {@code mpi.Struct}). Subclasses add fields in their constructor ({@code addInt()}, …, each returning the
 * field's byte offset, aligned to its size) and implement {@link #newData()}; {@code getData(buffer, i)} gives
 * an accessor over record {@code i}. The derived datatype ({@link #getType()}) is not implemented yet, except
 * for the predefined pair types.
 */
public abstract class Struct {
    private int extent;
    private int alignment = 1;
    private int offset;
    private final Datatype predefinedType;

    public Struct() {
        this(null);
    }

    Struct(Datatype predefinedType) {
        this.predefinedType = predefinedType;
    }

    /** Creates an accessor object; the bindings then point it at a record. */
    protected abstract Data newData();

    /** Extent of one record, in bytes. */
    public final int getExtent() throws MPIException {
        return (extent + alignment - 1) / alignment * alignment;
    }

    /** The datatype of one record. */
    public final Datatype getType() throws MPIException {
        if (predefinedType == null) {
            throw Errors.unsupported("MPI_Type_create_struct (mpi.Struct.getType)");
        }
        return predefinedType;
    }

    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    @SuppressWarnings("unchecked")
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        Data data = newData();
        data.buffer = buffer.duplicate().order(ByteOrder.nativeOrder());
        data.offset = index * getExtent();
        return (T) data;
    }

    public final <T extends Data> T getData(byte[] buffer) throws MPIException {
        return getData(ByteBuffer.wrap(buffer), 0);
    }

    public final <T extends Data> T getData(byte[] buffer, int index) throws MPIException {
        return getData(ByteBuffer.wrap(buffer), index);
    }

    /** Sets the offset of the next field (an explicit layout). */
    public final Struct setOffset(int offset) {
        this.offset = offset;
        return this;
    }

    private int addField(int size, int count) {
        int at = (offset + size - 1) / size * size;
        offset = at + size * count;
        extent = Math.max(extent, offset);
        alignment = Math.max(alignment, size);
        return at;
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return addField(1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return addField(2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return addField(2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return addField(4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return addField(8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return addField(4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return addField(8, length);
    }

    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) throws MPIException {
        int size = Math.max(struct.alignment, 1);
        int at = (offset + size - 1) / size * size;
        offset = at + struct.getExtent() * length;
        extent = Math.max(extent, offset);
        alignment = Math.max(alignment, size);
        return at;
    }

    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) throws MPIException {
        return addField(1, Datatype.checkedByteSize(type, "mpi.Struct.addData") * length);
    }

    /** A field of a struct (kept for Open MPI's layout; Weft records fields only by offset). */
    static class Field {
    }

    /** An accessor over one record of a {@link Struct} in a buffer. */
    public abstract class Data {
        private ByteBuffer buffer;
        private int offset;

        public Data() {
        }

        /** The buffer this record lies in. */
        public final ByteBuffer getBuffer() {
            return buffer;
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte value) {
            buffer.put(offset + field, value);
        }

        protected final void putByte(int field, int index, byte value) {
            buffer.put(offset + field + index, value);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char value) {
            buffer.putChar(offset + field, value);
        }

        protected final void putChar(int field, int index, char value) {
            buffer.putChar(offset + field + index * 2, value);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short value) {
            buffer.putShort(offset + field, value);
        }

        protected final void putShort(int field, int index, short value) {
            buffer.putShort(offset + field + index * 2, value);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int value) {
            buffer.putInt(offset + field, value);
        }

        protected final void putInt(int field, int index, int value) {
            buffer.putInt(offset + field + index * 4, value);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long value) {
            buffer.putLong(offset + field, value);
        }

        protected final void putLong(int field, int index, long value) {
            buffer.putLong(offset + field + index * 8, value);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float value) {
            buffer.putFloat(offset + field, value);
        }

        protected final void putFloat(int field, int index, float value) {
            buffer.putFloat(offset + field + index * 4, value);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double value) {
            buffer.putDouble(offset + field, value);
        }

        protected final void putDouble(int field, int index, double value) {
            buffer.putDouble(offset + field + index * 8, value);
        }
    }
}
