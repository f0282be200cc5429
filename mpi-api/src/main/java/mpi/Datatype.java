package mpi;

import java.util.function.Supplier;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.MpiRuntime;
import org.weft.core.RuntimeBinding;
import org.weft.core.attr.AttributeTable;
import org.weft.core.datatype.DerivedTypes;
import org.weft.core.datatype.TypeDescriptor;

/**
 * A datatype ({@code MPI_Datatype}). Sizes, bounds and extents count in units of the type's base type (Open MPI's
 * convention: {@code MPI.INT.getSize() == 1}, {@code createContiguous(4, MPI.INT).getExtent() == 4}); struct and
 * pair types have base type {@code BYTE}, so theirs are bytes. Displacement arguments of the H-constructors,
 * {@link #createStruct} and {@link #createResized} are bytes; those of {@link #createVector} and
 * {@link #createIndexed} count extents of the old type. A derived type must be {@link #commit committed} before
 * it is used in communication.
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
            return TypeDescriptor.checkNotFreed(descriptor);
        } catch (DeviceException e) {
            throw Errors.onWorld(call, e);
        }
    }

    /** {@code MPI_Type_get_extent}: lower bound, in base-type units. */
    public int getLb() throws MPIException {
        TypeDescriptor t = usable("MPI_Type_get_extent");
        return t.inBaseUnits(t.lb());
    }

    /** {@code MPI_Type_get_extent}: extent, in base-type units. */
    public int getExtent() throws MPIException {
        TypeDescriptor t = usable("MPI_Type_get_extent");
        return t.inBaseUnits(t.extent());
    }

    /** {@code MPI_Type_get_true_extent}: true lower bound, in base-type units. */
    public int getTrueLb() throws MPIException {
        TypeDescriptor t = usable("MPI_Type_get_true_extent");
        return t.inBaseUnits(t.trueLb());
    }

    /** {@code MPI_Type_get_true_extent}: true extent, in base-type units. */
    public int getTrueExtent() throws MPIException {
        TypeDescriptor t = usable("MPI_Type_get_true_extent");
        return t.inBaseUnits(t.trueExtent());
    }

    /** {@code MPI_Type_size}, in base-type units. */
    public int getSize() throws MPIException {
        return usable("MPI_Type_size").baseCount();
    }

    /** {@code MPI_Type_commit}: the type can be used in communication from now on. */
    public void commit() throws MPIException {
        try {
            usable("MPI_Type_commit").commit();
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Type_commit", e);
        }
    }

    /** {@code MPI_Type_free}: {@code ERR_TYPE} for predefined or already freed types. */
    public void free() throws MPIException {
        try {
            TypeDescriptor t = usable("MPI_Type_free");
            t.free();
            RuntimeBinding.runtime().typeAttributes().remove(t);
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Type_free", e);
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

    /** {@code MPI_Type_dup}: committed if this type is; the name and the attributes are copied. */
    public Datatype dup() throws MPIException {
        TypeDescriptor original = usable("MPI_Type_dup");
        Datatype copy = new Datatype(original.duplicate());
        copy.name = name;
        RuntimeBinding.runtime().typeAttributes().copy(original, copy.descriptor);
        return copy;
    }

    /** {@code MPI_Type_contiguous}. */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        return derived("MPI_Type_contiguous", () -> DerivedTypes.contiguous(count, descriptorOf(oldType)));
    }

    /** {@code MPI_Type_vector}: the stride counts extents of {@code oldType}. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        return derived("MPI_Type_vector",
                () -> DerivedTypes.vector(count, blockLength, stride, descriptorOf(oldType)));
    }

    /** {@code MPI_Type_create_hvector}; the stride is in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        return derived("MPI_Type_create_hvector",
                () -> DerivedTypes.hvector(count, blockLength, stride, descriptorOf(oldType)));
    }

    /** {@code MPI_Type_indexed}: displacements count extents of {@code oldType}. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return derived("MPI_Type_indexed",
                () -> DerivedTypes.indexed(blockLengths, displacements, descriptorOf(oldType)));
    }

    /** {@code MPI_Type_create_hindexed}; displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return derived("MPI_Type_create_hindexed",
                () -> DerivedTypes.hindexed(blockLengths, DerivedTypes.bytes(displacements), descriptorOf(oldType)));
    }

    /** {@code MPI_Type_create_struct}; displacements in bytes; the new type's base type is {@code BYTE}. */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types)
            throws MPIException {
        return derived("MPI_Type_create_struct", () -> DerivedTypes.struct(blockLengths,
                DerivedTypes.bytes(displacements), descriptorsOf(types)));
    }

    /** {@code MPI_Type_create_resized}; lower bound and extent in bytes. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        return derived("MPI_Type_create_resized", () -> DerivedTypes.resized(descriptorOf(oldType), lb, extent));
    }

    private static Datatype derived(String call, Supplier<TypeDescriptor> constructor) throws MPIException {
        try {
            return new Datatype(constructor.get());
        } catch (DeviceException e) {
            throw Errors.onWorld(call, e);
        }
    }

    private static TypeDescriptor[] descriptorsOf(Datatype[] types) {
        if (types == null) {
            return null;
        }
        TypeDescriptor[] descriptors = new TypeDescriptor[types.length];
        for (int i = 0; i < types.length; i++) {
            descriptors[i] = descriptorOf(types[i]);
        }
        return descriptors;
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

    /** {@code MPI_Type_create_keyval}: attributes of the new keyval are copied to duplicates ({@link #dup}). */
    public static int createKeyval() throws MPIException {
        try {
            return RuntimeBinding.runtime().typeKeyvals().create();
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Type_create_keyval", e);
        }
    }

    /** {@code MPI_Type_free_keyval}: {@code ERR_KEYVAL} for an unknown or freed keyval. */
    public static void freeKeyval(int keyval) throws MPIException {
        try {
            RuntimeBinding.runtime().typeKeyvals().free(keyval);
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Type_free_keyval", e);
        }
    }

    /** {@code MPI_Type_set_attr}: the value is stored by value (serialized); {@code ERR_KEYVAL} if invalid. */
    public void setAttr(int keyval, Object value) throws MPIException {
        TypeDescriptor t = usable("MPI_Type_set_attr");
        MpiRuntime runtime = RuntimeBinding.runtime();
        try {
            runtime.typeKeyvals().checkUser(keyval);
            runtime.typeAttributes().of(t).set(keyval, value);
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Type_set_attr", e);
        }
    }

    /** {@code MPI_Type_get_attr}: a copy of the value, or {@code null} if none is set; {@code ERR_KEYVAL}. */
    public Object getAttr(int keyval) throws MPIException {
        AttributeTable table = attributes("MPI_Type_get_attr", keyval);
        try {
            return table == null ? null : table.get(keyval);
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Type_get_attr", e);
        }
    }

    /** {@code MPI_Type_delete_attr}: {@code ERR_KEYVAL} for an unknown keyval. */
    public void deleteAttr(int keyval) throws MPIException {
        AttributeTable table = attributes("MPI_Type_delete_attr", keyval);
        if (table != null) {
            table.delete(keyval);
        }
    }

    /** This type's attributes ({@code null}: none ever set) after checking it and a keyval ever handed out. */
    private AttributeTable attributes(String call, int keyval) throws MPIException {
        TypeDescriptor t = usable(call);
        MpiRuntime runtime = RuntimeBinding.runtime();
        if (!runtime.typeKeyvals().wasCreated(keyval)) {
            throw Errors.onWorld(call, ErrorClass.ERR_KEYVAL, "invalid keyval " + keyval);
        }
        return runtime.typeAttributes().find(t);
    }

    @Override
    public String toString() {
        return name;
    }

    static int checkedByteSize(Datatype type, String call) throws MPIException {
        return checkedDescriptor(type, call).byteSize();
    }

    /** The descriptor of a type argument of a query: {@code ERR_TYPE} if it is null or freed. */
    static TypeDescriptor checkedDescriptor(Datatype type, String call) throws MPIException {
        if (type == null || type.descriptor == null) {
            throw Errors.onWorld(call, ErrorClass.ERR_TYPE, "the datatype is null");
        }
        return type.usable(call);
    }
}
