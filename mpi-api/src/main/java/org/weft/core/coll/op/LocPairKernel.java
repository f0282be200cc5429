package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.weft.adi.ErrorClass;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.PairLayout;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * {@code MPI_MINLOC} and {@code MPI_MAXLOC} on the pair types ({@code MPI_2INT}, {@code MPI_SHORT_INT},
 * {@code MPI_LONG_INT}, {@code MPI_FLOAT_INT}, {@code MPI_DOUBLE_INT}). Reductions see the packed form of the
 * records ({@link PairLayout}: the value, then at once the {@code int} index, no padding). The better value
 * wins; on a tie the lower index (MPI 4.1 §6.9.4), which also makes the operation commutative.
 */
public final class LocPairKernel {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private LocPairKernel() {
    }

    /** The combiner of MAXLOC ({@code max}) or MINLOC on {@code type}; {@code ERR_OP} unless it is a pair type. */
    public static Combiner bind(boolean max, TypeDescriptor type) {
        PairLayout pair = type.pairLayout();
        if (pair == null) {
            throw MpiErrors.error(ErrorClass.ERR_OP, (max ? "MPI_MAXLOC" : "MPI_MINLOC") + " is defined on the"
                    + " pair types only (MPI.INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT), not on "
                    + type.name());
        }
        BaseType value = pair.value();
        int recordBytes = pair.packedBytes();
        int indexAt = pair.packedIndexOffset();
        return (in, inout, count) -> {
            for (long i = 0; i < count; i++) {
                long at = i * recordBytes;
                int order = compare(value, in, inout, at);
                if (max ? order > 0 : order < 0) {
                    MemorySegment.copy(in, at, inout, at, recordBytes);
                } else if (order == 0) {
                    long index = at + indexAt;
                    inout.set(INT, index, Math.min(in.get(INT, index), inout.get(INT, index)));
                }
            }
        };
    }

    /** Compares the values at {@code at} of {@code a} and {@code b}. */
    private static int compare(BaseType value, MemorySegment a, MemorySegment b, long at) {
        return switch (value) {
            case INT -> Integer.compare(a.get(INT, at), b.get(INT, at));
            case SHORT -> Short.compare(a.get(ValueLayout.JAVA_SHORT_UNALIGNED, at),
                    b.get(ValueLayout.JAVA_SHORT_UNALIGNED, at));
            case LONG -> Long.compare(a.get(ValueLayout.JAVA_LONG_UNALIGNED, at),
                    b.get(ValueLayout.JAVA_LONG_UNALIGNED, at));
            case FLOAT -> Float.compare(a.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at),
                    b.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at));
            case DOUBLE -> Double.compare(a.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at),
                    b.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at));
            default -> throw new IllegalArgumentException("no pair type has a " + value + " value");
        };
    }
}
