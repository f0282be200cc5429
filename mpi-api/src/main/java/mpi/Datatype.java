package mpi;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.datatype.TypeDescriptor;

/**
 * A datatype ({@code MPI_Datatype}). Sizes and extents count in units of the type's base type (Open MPI's
 * convention: {@code MPI.INT.getSize() == 1}). Derived datatype constructors are not implemented yet.
 */
public final class Datatype implements Freeable, Cloneable {
    private final TypeDescriptor descriptor;
    private volatile String name;

    Datatype(TypeDescriptor descriptor) {
        this.descriptor = descriptor;
        this.name = descriptor == null ? "MPI_DATATYPE_NULL" : descriptor.name();
    }

    /** The core descriptor of {@code type}, or null for a null type (checked later as {@code ERR_TYPE}). */
    static TypeDescriptor descriptorOf(Datatype type) {
        return type == null ? null : type.descriptor;
    }

    private TypeDescriptor usable(String call) throws MPIException {
        try {
            return TypeDescriptor.check(descriptor);
        } catch (DeviceException e) {
            throw Errors.plain(call, e);
        }
    }

    /** {@code MPI_Type_get_extent}: lower bound, in base-type units. */
    public int getLb() throws MPIException {
        usable("MPI_Type_get_extent");
        return 0;
    }

    /** {@code MPI_Type_get_extent}: extent, in base-type units. */
    public int getExtent() throws MPIException {
        return usable("MPI_Type_get_extent").baseCount();
    }

    /** {@code MPI_Type_get_true_extent}: true lower bound, in base-type units. */
    public int getTrueLb() throws MPIException {
        usable("MPI_Type_get_true_extent");
        return 0;
    }

    /** {@code MPI_Type_get_true_extent}: true extent, in base-type units. */
    public int getTrueExtent() throws MPIException {
        return usable("MPI_Type_get_true_extent").baseCount();
    }

    /** {@code MPI_Type_size}, in base-type units. */
    public int getSize() throws MPIException {
        return usable("MPI_Type_size").baseCount();
    }

    /** {@code MPI_Type_commit}: contiguous types are ready as they are. */
    public void commit() throws MPIException {
        usable("MPI_Type_commit");
    }

    /** {@code MPI_Type_free}: {@code ERR_TYPE} for predefined or already freed types. */
    public void free() throws MPIException {
        try {
            TypeDescriptor.check(descriptor).free();
        } catch (DeviceException e) {
            throw Errors.plain("MPI_Type_free", e);
        }
    }

    /** True for {@code MPI.DATATYPE_NULL} and freed types. */
    public boolean isNull() {
        return descriptor == null || descriptor.isFreed();
    }

    /** {@link #dup()}, with errors as unchecked exceptions (Open MPI's behaviour). */
    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** {@code MPI_Type_dup}. */
    public Datatype dup() throws MPIException {
        return new Datatype(usable("MPI_Type_dup").duplicate());
    }

    /** {@code MPI_Type_contiguous}. */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        throw Errors.unsupported("MPI_Type_contiguous");
    }

    /** {@code MPI_Type_vector}. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        throw Errors.unsupported("MPI_Type_vector");
    }

    /** {@code MPI_Type_create_hvector}; the stride is in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        throw Errors.unsupported("MPI_Type_create_hvector");
    }

    /** {@code MPI_Type_indexed}. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        throw Errors.unsupported("MPI_Type_indexed");
    }

    /** {@code MPI_Type_create_hindexed}; displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        throw Errors.unsupported("MPI_Type_create_hindexed");
    }

    /** {@code MPI_Type_create_struct}; displacements in bytes. */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types)
            throws MPIException {
        throw Errors.unsupported("MPI_Type_create_struct");
    }

    /** {@code MPI_Type_create_resized}; lower bound and extent in bytes. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        throw Errors.unsupported("MPI_Type_create_resized");
    }

    /** {@code MPI_Type_set_name}. */
    public void setName(String name) throws MPIException {
        usable("MPI_Type_set_name");
        this.name = name;
    }

    /** {@code MPI_Type_get_name}. */
    public String getName() throws MPIException {
        usable("MPI_Type_get_name");
        return name;
    }

    /** {@code MPI_Type_create_keyval}. */
    public static int createKeyval() throws MPIException {
        throw Errors.unsupported("MPI_Type_create_keyval");
    }

    /** {@code MPI_Type_free_keyval}. */
    public static void freeKeyval(int keyval) throws MPIException {
        throw Errors.unsupported("MPI_Type_free_keyval");
    }

    /** {@code MPI_Type_set_attr}. */
    public void setAttr(int keyval, Object value) throws MPIException {
        throw Errors.unsupported("MPI_Type_set_attr");
    }

    /** {@code MPI_Type_get_attr}. */
    public Object getAttr(int keyval) throws MPIException {
        throw Errors.unsupported("MPI_Type_get_attr");
    }

    /** {@code MPI_Type_delete_attr}. */
    public void deleteAttr(int keyval) throws MPIException {
        throw Errors.unsupported("MPI_Type_delete_attr");
    }

    @Override
    public String toString() {
        return name;
    }

    static int checkedByteSize(Datatype type, String call) throws MPIException {
        if (type == null || type.descriptor == null) {
            throw Errors.plain(call, ErrorClass.ERR_TYPE, "the datatype is null");
        }
        return type.usable(call).byteSize();
    }
}
