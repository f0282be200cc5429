package org.weft.core.datatype;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * A datatype of the core layer. Today only contiguous types exist: {@code baseCount} elements of a
 * {@link BaseType} (predefined types have one element; pair and complex types several). Sizes on the Java
 * API are counted in base-type units (Open MPI's convention), so {@code MPI.INT.getSize() == 1}.
 *
 * <p>Predefined descriptors are immutable and shared; a duplicate can be freed, after which it is unusable.
 */
public final class TypeDescriptor {
    private final String name;
    private final BaseType base;
    private final int baseCount;
    private final boolean predefined;
    private final boolean packed;
    private volatile boolean freed;

    private TypeDescriptor(String name, BaseType base, int baseCount, boolean predefined, boolean packed) {
        this.name = name;
        this.base = base;
        this.baseCount = baseCount;
        this.predefined = predefined;
        this.packed = packed;
    }

    /** A predefined type of {@code baseCount} elements of {@code base}. */
    public static TypeDescriptor predefined(String name, BaseType base, int baseCount) {
        return new TypeDescriptor(name, base, baseCount, true, false);
    }

    /** {@code MPI_PACKED}: bytes in a {@code byte[]} or {@code ByteBuffer}. */
    public static TypeDescriptor packed() {
        return new TypeDescriptor("MPI_PACKED", BaseType.BYTE, 1, true, true);
    }

    /** {@code MPI_Type_dup}: a committed copy that can be freed on its own. */
    public TypeDescriptor duplicate() {
        checkUsable();
        return new TypeDescriptor(name, base, baseCount, false, packed);
    }

    public String name() {
        return name;
    }

    public BaseType base() {
        return base;
    }

    /** Number of base elements in one item of this type ({@code getSize()} in the Java API). */
    public int baseCount() {
        return baseCount;
    }

    /** Bytes of one item. */
    public int byteSize() {
        return baseCount * base.bytes();
    }

    public boolean isPredefined() {
        return predefined;
    }

    public boolean isFreed() {
        return freed;
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
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the datatype " + name + " has been freed");
        }
        return this;
    }

    /** Validates a datatype argument: {@code ERR_TYPE} for null or freed. */
    public static TypeDescriptor check(TypeDescriptor type) {
        if (type == null) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the datatype is null (MPI.DATATYPE_NULL)");
        }
        return type.checkUsable();
    }

    @Override
    public String toString() {
        return name;
    }
}
