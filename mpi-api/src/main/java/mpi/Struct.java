package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.weft.core.datatype.TypeDescriptor;

/**
 * A Java description of a C struct, to send arrays of records through a {@code byte[]} or {@code ByteBuffer}
 * (Open MPI's {@code mpi.Struct}). Subclasses add fields in their constructor ({@code addInt()}, …, each
 * returning the field's byte offset, aligned to its element size as a C compiler would) and implement
 * {@link #newData()}; {@code getData(buffer, i)} gives an accessor over record {@code i}, in native byte order.
 * {@link #getType()} is the matching committed struct datatype, resized to {@link #getExtent()}. An accessor reaches
 * nested records and sends fields on their own through {@code Data}'s protected {@code getData(struct, field)} and
 * {@code getBuffer(type, field)}, as in Open MPI.
 */
public abstract class Struct {
    private int extent;
    private int alignment = 1;
    private int offset;
    private final Datatype predefinedType;
    private final List<Field> fields = new ArrayList<>();
    private Datatype type;

    public Struct() {
        this(null);
    }

    /** A struct describing a predefined type (the pair types), whose datatype is that type. */
    Struct(Datatype predefinedType) {
        this.predefinedType = predefinedType;
    }

    /** Creates an accessor object; the bindings then point it at a record. */
    protected abstract Data newData();

    /** Extent of one record, in bytes: past the last field, rounded up to the largest field alignment. */
    public final int getExtent() throws MPIException {
        return recordBytes();
    }

    private int recordBytes() {
        return (extent + alignment - 1) / alignment * alignment;
    }

    /** The committed datatype of one record ({@code MPI_Type_create_struct}, resized to the extent). */
    public final synchronized Datatype getType() throws MPIException {
        if (predefinedType != null) {
            return predefinedType;
        }
        if (type == null) {
            int[] lengths = new int[fields.size()];
            int[] displacements = new int[fields.size()];
            Datatype[] types = new Datatype[fields.size()];
            for (int i = 0; i < types.length; i++) {
                Field f = fields.get(i);
                lengths[i] = f.length;
                displacements[i] = f.offset;
                types[i] = f.type;
            }
            Datatype struct = Datatype.createStruct(lengths, displacements, types);
            Datatype resized = Datatype.createResized(struct, 0, getExtent());
            resized.commit();
            type = resized;
        }
        return type;
    }

    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        return dataAt(buffer.duplicate().order(ByteOrder.nativeOrder()), index * recordBytes());
    }

    /** A new accessor over the record at byte {@code offset} of {@code buffer} (already in native order). */
    @SuppressWarnings("unchecked")
    private <T extends Data> T dataAt(ByteBuffer buffer, int offset) {
        Data data = newData();
        data.buffer = buffer;
        data.offset = offset;
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

    /** Adds {@code length} items of {@code type}, each {@code itemBytes} long, aligned to {@code align}. */
    private synchronized int addField(int align, int itemBytes, Datatype type, int length) {
        int at = (offset + align - 1) / align * align;
        offset = at + itemBytes * length;
        extent = Math.max(extent, offset);
        alignment = Math.max(alignment, align);
        fields.add(new Field(at, type, length));
        this.type = null;
        return at;
    }

    private int addPrimitive(Datatype type, int bytes, int length) {
        return addField(bytes, bytes, type, length);
    }

    public final int addByte() {
        return addByte(1);
    }

    public final int addByte(int length) {
        return addPrimitive(MPI.BYTE, 1, length);
    }

    public final int addChar() {
        return addChar(1);
    }

    public final int addChar(int length) {
        return addPrimitive(MPI.CHAR, 2, length);
    }

    public final int addShort() {
        return addShort(1);
    }

    public final int addShort(int length) {
        return addPrimitive(MPI.SHORT, 2, length);
    }

    public final int addInt() {
        return addInt(1);
    }

    public final int addInt(int length) {
        return addPrimitive(MPI.INT, 4, length);
    }

    public final int addLong() {
        return addLong(1);
    }

    public final int addLong(int length) {
        return addPrimitive(MPI.LONG, 8, length);
    }

    public final int addFloat() {
        return addFloat(1);
    }

    public final int addFloat(int length) {
        return addPrimitive(MPI.FLOAT, 4, length);
    }

    public final int addDouble() {
        return addDouble(1);
    }

    public final int addDouble(int length) {
        return addPrimitive(MPI.DOUBLE, 8, length);
    }

    /** Adds a nested record, aligned as its largest field. */
    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    public final int addStruct(Struct struct, int length) throws MPIException {
        return addField(Math.max(struct.alignment, 1), struct.getExtent(), struct.getType(), length);
    }

    /** Adds items of any datatype, aligned to its base type; each takes the type's extent in bytes. */
    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    public final int addData(Datatype type, int length) throws MPIException {
        TypeDescriptor t = Datatype.checkedDescriptor(type, "mpi.Struct.addData");
        return addField(t.base().bytes(), Math.toIntExact(t.extent()), type, length);
    }

    /** A field of a struct: its byte offset, type and number of items. */
    static class Field {
        final int offset;
        final Datatype type;
        final int length;

        Field(int offset, Datatype type, int length) {
            this.offset = offset;
            this.type = type;
            this.length = length;
        }
    }

    /** An accessor over one record of a {@link Struct} in a buffer. */
    public abstract class Data {
        private ByteBuffer buffer;
        private int offset;

        public Data() {
        }

        /**
         * The buffer from this record on (Open MPI's {@code MPI.slice} of the buffer at the record's offset): sending
         * it with a count of {@code n} sends this record and the {@code n - 1} after it.
         */
        public final ByteBuffer getBuffer() {
            return from(offset);
        }

        /**
         * The record of {@code struct} nested at byte {@code field} of this one (a field added by
         * {@code addStruct(struct)}), over the same buffer.
         */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return getData(struct, field, 0);
        }

        /** Record {@code index} of an array of {@code struct} records nested at byte {@code field} of this one. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            Struct nested = struct; // a type variable does not give access to Struct's private members
            return nested.dataAt(buffer, offset + field + index * nested.recordBytes());
        }

        /**
         * The buffer from byte {@code field} of this record on, to send or receive the field as items of
         * {@code type} (which only documents the intent, as in Open MPI).
         */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            return from(offset + field);
        }

        /** The buffer from item {@code index} (items of {@code type}'s extent) of the field at byte {@code field}. */
        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            long itemBytes = Datatype.checkedDescriptor(type, "mpi.Struct.Data.getBuffer").extent();
            return from(Math.toIntExact(offset + field + index * itemBytes));
        }

        /** The buffer from byte {@code position} on, in native order, addressed from index 0. */
        private ByteBuffer from(int position) {
            return MPI.slice(buffer, position);
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
