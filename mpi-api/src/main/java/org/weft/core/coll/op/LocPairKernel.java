package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * {@code MPI_MINLOC} and {@code MPI_MAXLOC} on the pair types, laid out as Open MPI's C structs (value, then an
 * int index at the value's alignment): {@code MPI_2INT} (int@0, int@4; 8 bytes), {@code MPI_SHORT_INT}
 * (short@0, int@4; 8), {@code MPI_LONG_INT} (long@0, int@8; 16), {@code MPI_FLOAT_INT} (float@0, int@4; 8),
 * {@code MPI_DOUBLE_INT} (double@0, int@8; 16). The better value wins; on a tie the lower index (MPI 4.1 §6.9.4),
 * which also makes the operation commutative.
 */
public final class LocPairKernel {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    /** One pair type: its size, where its index lies, and how its values compare. */
    private enum Pair {
        INT2(8, 4), SHORT_INT(8, 4), LONG_INT(16, 8), FLOAT_INT(8, 4), DOUBLE_INT(16, 8);

        final int size;
        final int indexOffset;

        Pair(int size, int indexOffset) {
            this.size = size;
            this.indexOffset = indexOffset;
        }

        /** Compares the values of pair {@code i} of {@code a} and {@code b}. */
        int compare(MemorySegment a, MemorySegment b, long at) {
            return switch (this) {
                case INT2 -> Integer.compare(a.get(INT, at), b.get(INT, at));
                case SHORT_INT -> Short.compare(a.get(ValueLayout.JAVA_SHORT_UNALIGNED, at),
                        b.get(ValueLayout.JAVA_SHORT_UNALIGNED, at));
                case LONG_INT -> Long.compare(a.get(ValueLayout.JAVA_LONG_UNALIGNED, at),
                        b.get(ValueLayout.JAVA_LONG_UNALIGNED, at));
                case FLOAT_INT -> Float.compare(a.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at),
                        b.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at));
                case DOUBLE_INT -> Double.compare(a.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at),
                        b.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at));
            };
        }
    }

    private LocPairKernel() {
    }

    /** The combiner of MAXLOC ({@code max}) or MINLOC on the pair type named {@code typeName}; else {@code ERR_OP}. */
    public static Combiner bind(boolean max, String typeName) {
        Pair pair = switch (typeName) {
            case "MPI_2INT" -> Pair.INT2;
            case "MPI_SHORT_INT" -> Pair.SHORT_INT;
            case "MPI_LONG_INT" -> Pair.LONG_INT;
            case "MPI_FLOAT_INT" -> Pair.FLOAT_INT;
            case "MPI_DOUBLE_INT" -> Pair.DOUBLE_INT;
            default -> throw MpiErrors.error(ErrorClass.ERR_OP, (max ? "MPI_MAXLOC" : "MPI_MINLOC")
                    + " is defined on the pair types only (MPI.INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT),"
                    + " not on " + typeName);
        };
        return (in, inout, count) -> apply(pair, max, in, inout, count);
    }

    private static void apply(Pair pair, boolean max, MemorySegment in, MemorySegment inout, int count) {
        for (long i = 0; i < count; i++) {
            long at = i * pair.size;
            int order = pair.compare(in, inout, at);
            boolean inWins = max ? order > 0 : order < 0;
            if (inWins) {
                MemorySegment.copy(in, at, inout, at, pair.size);
            } else if (order == 0) {
                long index = at + pair.indexOffset;
                inout.set(INT, index, Math.min(in.get(INT, index), inout.get(INT, index)));
            }
        }
    }
}
