package org.weft.core.datatype;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * The type constructors of MPI: each lays copies of old types at byte displacements and flattens the result to
 * one {@link Typemap}. Bounds follow the standard: {@code lb} is the least and {@code ub} the greatest bound of
 * the copies; a struct's upper bound is padded to the alignment of its largest element, as a C compiler pads a
 * record (MPICH and Open MPI do the same); {@code MPI_Type_create_resized} sets bounds explicitly.
 *
 * <p>Arguments are in bytes here; the facade converts the element displacements of {@code MPI_Type_vector}
 * and {@code MPI_Type_indexed} (which are in extents of the old type). New types are uncommitted.
 */
public final class DerivedTypes {
    private DerivedTypes() {
    }

    /** {@code MPI_Type_contiguous}. */
    public static TypeDescriptor contiguous(int count, TypeDescriptor old) {
        return hvector(count, 1, TypeDescriptor.checkNotFreed(old).extent(), old);
    }

    /** {@code MPI_Type_vector}: the stride counts extents of {@code old}. */
    public static TypeDescriptor vector(int count, int blockLength, int stride, TypeDescriptor old) {
        return hvector(count, blockLength, stride * TypeDescriptor.checkNotFreed(old).extent(), old);
    }

    /** {@code MPI_Type_create_hvector}: the stride is in bytes. */
    public static TypeDescriptor hvector(int count, int blockLength, long strideBytes, TypeDescriptor old) {
        TypeDescriptor.checkNotFreed(old);
        checkCount(count, "count");
        checkCount(blockLength, "block length");
        long[] displacements = new long[count];
        int[] blockLengths = new int[count];
        for (int i = 0; i < count; i++) {
            displacements[i] = i * strideBytes;
            blockLengths[i] = blockLength;
        }
        return copies(blockLengths, displacements, repeat(old, count), old.base(), false);
    }

    /** {@code MPI_Type_indexed}: displacements count extents of {@code old}. */
    public static TypeDescriptor indexed(int[] blockLengths, int[] displacements, TypeDescriptor old) {
        TypeDescriptor.checkNotFreed(old);
        return hindexed(blockLengths, scaled(displacements, old.extent()), old);
    }

    /** {@code MPI_Type_create_hindexed}: displacements in bytes. */
    public static TypeDescriptor hindexed(int[] blockLengths, long[] displacements, TypeDescriptor old) {
        TypeDescriptor.checkNotFreed(old);
        checkLengths(blockLengths, displacements.length);
        return copies(blockLengths, displacements, repeat(old, blockLengths.length), old.base(), false);
    }

    /** {@code MPI_Type_create_struct}: displacements in bytes; the result has base {@code BYTE}. */
    public static TypeDescriptor struct(int[] blockLengths, long[] displacements, TypeDescriptor[] types) {
        if (types == null) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "the array of types is null");
        }
        checkLengths(blockLengths, displacements.length);
        if (types.length != blockLengths.length) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, blockLengths.length + " block lengths but " + types.length
                    + " types");
        }
        for (TypeDescriptor type : types) {
            TypeDescriptor.checkNotFreed(type);
        }
        return copies(blockLengths, displacements, types, BaseType.BYTE, true);
    }

    /** {@code MPI_Type_create_resized}: the same data with lower bound and extent set, in bytes. */
    public static TypeDescriptor resized(TypeDescriptor old, long lb, long extent) {
        TypeDescriptor.checkNotFreed(old);
        return TypeDescriptor.derived(old.base(), old.typemap(), lb, extent, old.alignment());
    }

    /**
     * The type made of {@code blockLengths[i]} consecutive copies of {@code types[i]} at byte
     * {@code displacements[i]}, in that order.
     */
    private static TypeDescriptor copies(int[] blockLengths, long[] displacements, TypeDescriptor[] types,
                                         BaseType base, boolean padToAlignment) {
        TypemapBuilder builder = new TypemapBuilder();
        long lb = Long.MAX_VALUE;
        long ub = Long.MIN_VALUE;
        int alignment = 1;
        for (int i = 0; i < blockLengths.length; i++) {
            TypeDescriptor old = types[i];
            for (int j = 0; j < blockLengths[i]; j++) {
                builder.add(old.typemap(), displacements[i] + j * old.extent());
            }
            if (blockLengths[i] > 0) {
                long first = displacements[i] + old.lb();
                long last = displacements[i] + (blockLengths[i] - 1) * old.extent() + old.lb();
                lb = Math.min(lb, Math.min(first, last));
                ub = Math.max(ub, Math.max(first, last) + old.extent());
                alignment = Math.max(alignment, old.alignment());
            }
        }
        if (lb > ub) {
            lb = 0;
            ub = 0;
        }
        long extent = ub - lb;
        if (padToAlignment && extent % alignment != 0) {
            extent += alignment - extent % alignment;
        }
        return TypeDescriptor.derived(base, builder.build(), lb, extent, alignment);
    }

    private static TypeDescriptor[] repeat(TypeDescriptor type, int times) {
        TypeDescriptor[] types = new TypeDescriptor[times];
        java.util.Arrays.fill(types, type);
        return types;
    }

    private static long[] scaled(int[] displacements, long unit) {
        if (displacements == null) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "the displacements are null");
        }
        long[] bytes = new long[displacements.length];
        for (int i = 0; i < displacements.length; i++) {
            bytes[i] = displacements[i] * unit;
        }
        return bytes;
    }

    /** {@code displacements} in bytes, widened for {@link #hindexed} and {@link #struct}. */
    public static long[] bytes(int[] displacements) {
        return scaled(displacements, 1);
    }

    private static void checkLengths(int[] blockLengths, int displacements) {
        if (blockLengths == null) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "the block lengths are null");
        }
        if (blockLengths.length != displacements) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, blockLengths.length + " block lengths but " + displacements
                    + " displacements");
        }
        for (int length : blockLengths) {
            checkCount(length, "block length");
        }
    }

    private static void checkCount(int count, String what) {
        if (count < 0) {
            throw MpiErrors.error(ErrorClass.ERR_COUNT, "negative " + what + " " + count);
        }
    }
}
