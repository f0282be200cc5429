package org.weft.core.datatype;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * A datatype of the core layer: the {@link Typemap} of one item (runs of bytes at byte offsets), its bounds
 * ({@code lb} and extent: where the next item starts), and the Java {@link BaseType} whose array holds it.
 *
 * <p>Units: everything here is in bytes; the Java API counts sizes and extents in base-type units (Open MPI's
 * convention, {@code MPI.INT.getSize() == 1}), which {@link #inBaseUnits} converts to. Derived types keep the
 * base type of the type they were built from; struct and pair types have base {@code BYTE}, so their Java
 * units are bytes.
 *
 * <p>A type is <em>contiguous</em> when one run starts at byte 0 and fills the whole extent: items then tile
 * the buffer without gaps, and buffers map to segments without a copy. Other types are packed into staging on
 * send and unpacked on receive ({@link BufferMapping}).
 *
 * <p>Pair types carry a {@link PairLayout}, which documents their byte layout in the user's buffer and in
 * packed form for {@code MINLOC}/{@code MAXLOC}.
 *
 * <p>Lifecycle: predefined types are committed and cannot be freed; a derived type must be committed before it
 * is used in communication ({@code ERR_TYPE} otherwise); a freed type is unusable, but types built from it live
 * on (they copied its typemap).
 */
public final class TypeDescriptor {
    private final String name;
    private final BaseType base;
    private final Typemap map;
    private final long lb;
    private final long extent;
    private final int alignment;
    private final boolean predefined;
    private final boolean packed;
    private final PairLayout pair;
    /** Bytes of an item of a predefined type that is one run of plain bytes (not a pair, not packed), else -1. */
    private final int plainBytes;
    private volatile boolean committed;
    private volatile boolean freed;

    private TypeDescriptor(String name, BaseType base, Typemap map, long lb, long extent, int alignment,
                           boolean predefined, boolean packed, PairLayout pair) {
        this.name = name;
        this.base = base;
        this.map = map;
        this.lb = lb;
        this.extent = extent;
        this.alignment = alignment;
        this.predefined = predefined;
        this.packed = packed;
        this.pair = pair;
        this.committed = predefined;
        boolean plain = predefined && !packed && pair == null && map.runs() == 1 && map.offset(0) == 0
                && map.length(0) == extent;
        this.plainBytes = plain ? Math.toIntExact(extent) : -1;
    }

    /**
     * A predefined type of {@code baseCount} elements of {@code base}, one element of the whole size (a
     * {@code FLOAT_COMPLEX} is one element of two floats).
     */
    public static TypeDescriptor predefined(String name, BaseType base, int baseCount) {
        int bytes = baseCount * base.bytes();
        Typemap map = new TypemapBuilder().add(0, bytes, bytes).build();
        return new TypeDescriptor(name, base, map, 0, bytes, base.bytes(), true, false, null);
    }

    /** A predefined pair type: a {@code value} and an {@code int} index, laid out as in C (see {@link PairLayout}). */
    public static TypeDescriptor pair(String name, BaseType value) {
        PairLayout layout = PairLayout.of(value);
        return new TypeDescriptor(name, BaseType.BYTE, layout.typemap(), 0, layout.extent(),
                Math.max(value.bytes(), Integer.BYTES), true, false, layout);
    }

    /** {@code MPI_PACKED}: bytes in a {@code byte[]} or {@code ByteBuffer}. */
    public static TypeDescriptor packed() {
        Typemap map = new TypemapBuilder().add(0, 1, 1).build();
        return new TypeDescriptor("MPI_PACKED", BaseType.BYTE, map, 0, 1, 1, true, true, null);
    }

    /** A new, uncommitted derived type. */
    static TypeDescriptor derived(BaseType base, Typemap map, long lb, long extent, int alignment) {
        return new TypeDescriptor("", base, map, lb, extent, alignment, false, false, null);
    }

    /** {@code MPI_Type_dup}: a copy that can be freed on its own, committed if this type is. */
    public TypeDescriptor duplicate() {
        checkUsable();
        TypeDescriptor copy = new TypeDescriptor(name, base, map, lb, extent, alignment, false, packed, pair);
        copy.committed = committed;
        return copy;
    }

    public String name() {
        return name;
    }

    /** The Java base type: the array class that holds items, and the unit of the Java API's sizes. */
    public BaseType base() {
        return base;
    }

    /** Size in base-type units ({@code getSize()} in the Java API). */
    public int baseCount() {
        return byteSize() / base.bytes();
    }

    /** Bytes of data in one item (its packed size). */
    public int byteSize() {
        return Math.toIntExact(map.size());
    }

    /** The runs of one item. */
    public Typemap typemap() {
        return map;
    }

    /** Lower bound in bytes. */
    public long lb() {
        return lb;
    }

    /** Extent in bytes: the distance from one item to the next. */
    public long extent() {
        return extent;
    }

    /** Lowest byte holding data. */
    public long trueLb() {
        return map.trueLb();
    }

    /** Bytes from the lowest to one past the highest byte holding data. */
    public long trueExtent() {
        return map.trueUb() - map.trueLb();
    }

    /**
     * Lowest byte that {@code count} (&gt; 0) items, laid from a buffer's index 0, touch: below 0 when the type
     * holds data at negative displacements or has a negative extent.
     */
    public long lowestByte(int count) {
        return Math.min(0, (count - 1) * extent) + trueLb();
    }

    /** One past the highest byte that {@code count} (&gt; 0) items, laid from a buffer's index 0, touch. */
    public long highestByte(int count) {
        return Math.max(0, (count - 1) * extent) + map.trueUb();
    }

    /** The alignment C would give this type (its largest element), for struct padding. */
    int alignment() {
        return alignment;
    }

    /** {@code bytes} in Java API units (base-type units, rounded toward zero as Open MPI does). */
    public int inBaseUnits(long bytes) {
        return Math.toIntExact(bytes / base.bytes());
    }

    /** True when items tile the buffer without gaps, so that buffers need no packing. */
    public boolean isContiguous() {
        return map.runs() == 0 ? extent == 0 : map.runs() == 1 && map.offset(0) == 0 && map.length(0) == extent;
    }

    /** {@code MPI_Get_count}: whole items in {@code bytes} received, or -1 if they end inside an item. */
    public long countOf(long bytes) {
        long size = map.size();
        if (size == 0) {
            return 0;
        }
        return bytes % size == 0 ? bytes / size : -1;
    }

    /** {@code MPI_Get_elements}: whole basic elements in {@code bytes} received, or -1 if they end inside one. */
    public long elementsOf(long bytes) {
        long size = map.size();
        if (size == 0) {
            return 0;
        }
        long partial = map.elements(bytes % size);
        return partial < 0 ? -1 : bytes / size * map.elements() + partial;
    }

    /** {@code MPI_Status_set_elements}: the bytes that hold the first {@code elements} basic elements. */
    public long bytesOfElements(long elements) {
        long perItem = map.elements();
        if (perItem == 0) {
            return 0;
        }
        return elements / perItem * map.size() + map.bytesOfElements(elements % perItem);
    }

    /** The pair layout of a pair type, {@code null} for every other type. */
    public PairLayout pairLayout() {
        return pair;
    }

    /**
     * The bytes of one item when this is a predefined type whose item is one run of bytes without gaps (every
     * predefined type but the pairs and {@code MPI_PACKED}); -1 otherwise. Such a type is always committed and
     * never freed, so a fast path needs no other check of it.
     */
    public int plainBytes() {
        return plainBytes;
    }

    public boolean isPredefined() {
        return predefined;
    }

    public boolean isPacked() {
        return packed;
    }

    public boolean isCommitted() {
        return committed;
    }

    public boolean isFreed() {
        return freed;
    }

    /** {@code MPI_Type_commit}. */
    public void commit() {
        checkUsable();
        committed = true;
    }

    /** {@code MPI_Type_free}: predefined types cannot be freed. */
    public void free() {
        if (predefined) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "cannot free the predefined datatype " + name);
        }
        checkUsable();
        freed = true;
    }

    /** Fails with {@code ERR_TYPE} if the type was freed. */
    public TypeDescriptor checkUsable() {
        if (freed) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the datatype " + describe() + " has been freed");
        }
        return this;
    }

    /** Validates a datatype argument of a communication: {@code ERR_TYPE} for null, freed or uncommitted. */
    public static TypeDescriptor check(TypeDescriptor type) {
        checkNotNull(type).checkUsable();
        if (!type.committed) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the datatype " + type.describe()
                    + " is not committed (call commit() before using it)");
        }
        return type;
    }

    /** Validates a datatype argument of a query or constructor: {@code ERR_TYPE} for null or freed. */
    public static TypeDescriptor checkNotFreed(TypeDescriptor type) {
        return checkNotNull(type).checkUsable();
    }

    private static TypeDescriptor checkNotNull(TypeDescriptor type) {
        if (type == null) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the datatype is null (MPI.DATATYPE_NULL)");
        }
        return type;
    }

    private String describe() {
        return name.isEmpty() ? "(derived " + base + " " + map + ")" : name;
    }

    @Override
    public String toString() {
        return describe();
    }
}
