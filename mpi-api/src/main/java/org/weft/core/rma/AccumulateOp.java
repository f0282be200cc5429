package org.weft.core.rma;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.op.LocPairKernel;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * The operations of {@code MPI_Accumulate} and its kin: the predefined reductions, {@code MPI_REPLACE} and
 * {@code MPI_NO_OP} (MPI 3.1 §11.3.4), {@code MPI_MINLOC} and {@code MPI_MAXLOC} on the pair types. Each is
 * applied at the target to elements of one predefined type, so the
 * target rebuilds its combiner from the base type and the element size alone ({@link #combiner}).
 */
enum AccumulateOp {
    REPLACE, NO_OP, MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC;

    /**
     * The base-type code of a pair type in a request ({@code MPI_2INT}, {@code MPI_DOUBLE_INT}...): this plus its
     * value's base type, since a pair's own base type ({@code BYTE}) does not say which pair it is.
     */
    static final int PAIR_CODE = 1 << 8;

    private static final AccumulateOp[] ALL = values();
    private static final BaseType[] BASES = BaseType.values();

    /** The operation named {@code mpiName} ({@code MPI_SUM}...); {@code ERR_OP} for any other operation. */
    static AccumulateOp named(String mpiName) {
        if (mpiName != null && mpiName.startsWith("MPI_")) {
            for (AccumulateOp op : ALL) {
                if (mpiName.equals("MPI_" + op.name())) {
                    return op;
                }
            }
        }
        throw MpiErrors.error(ErrorClass.ERR_OP, (mpiName == null ? "a user-defined operation" : mpiName)
                + " cannot be used in one-sided accumulate operations (only predefined ones, MPI_REPLACE and"
                + " MPI_NO_OP)");
    }

    /**
     * The operation named {@code mpiName}, or {@code null}: {@link #named} without its error, by a string switch
     * (the name's cached hash, then one comparison) for the direct path of fetch-and-op.
     */
    static AccumulateOp ofName(String mpiName) {
        return mpiName == null ? null : switch (mpiName) {
            case "MPI_REPLACE" -> REPLACE;
            case "MPI_NO_OP" -> NO_OP;
            case "MPI_MAX" -> MAX;
            case "MPI_MIN" -> MIN;
            case "MPI_SUM" -> SUM;
            case "MPI_PROD" -> PROD;
            case "MPI_LAND" -> LAND;
            case "MPI_BAND" -> BAND;
            case "MPI_LOR" -> LOR;
            case "MPI_BOR" -> BOR;
            case "MPI_LXOR" -> LXOR;
            case "MPI_BXOR" -> BXOR;
            default -> null; // MINLOC, MAXLOC (pairs only), user operations
        };
    }

    static AccumulateOp of(int ordinal) {
        return ALL[ordinal];
    }

    /** Whether the operation is defined on floating-point elements (not the logical and bitwise ones). */
    boolean onDoubles() {
        return this == REPLACE || this == NO_OP || this == MAX || this == MIN || this == SUM || this == PROD;
    }

    /** Whether the operation compares (value, index) pairs: MINLOC, MAXLOC. */
    boolean onPairs() {
        return this == MINLOC || this == MAXLOC;
    }

    /** The base-type code of {@code type} in a request: its base type's, or {@link #PAIR_CODE} + its value's. */
    static int baseCode(TypeDescriptor type) {
        return type.pairLayout() != null ? PAIR_CODE + type.pairLayout().value().ordinal() : type.base().ordinal();
    }

    /**
     * Applies {@code in} to {@code target} element-wise: {@code target = in op target}. A cache of combiners per
     * (base type, element size); {@code ERR_OP} when the operation is not defined on the type.
     */
    static final class Combiners {
        private final Combiner[] cache = new Combiner[ALL.length * BASES.length * 2];
        private final Combiner[] pairs = new Combiner[ALL.length * BASES.length * 2];

        Combiner combiner(AccumulateOp op, int baseType, int elementBytes) {
            if (baseType >= PAIR_CODE) {
                return pairCombiner(op, baseType - PAIR_CODE);
            }
            BaseType base = BASES[baseType];
            int baseCount = elementBytes / base.bytes();
            if (baseCount < 1 || baseCount > 2 || elementBytes % base.bytes() != 0) {
                throw MpiErrors.error(ErrorClass.ERR_TYPE, "elements of " + elementBytes + " bytes of " + base
                        + " cannot be accumulated");
            }
            int slot = (op.ordinal() * BASES.length + baseType) * 2 + baseCount - 1;
            Combiner combiner = cache[slot];
            if (combiner == null) {
                combiner = bind(op, TypeDescriptor.predefined(base.name(), base, baseCount), elementBytes);
                cache[slot] = combiner;
            }
            return combiner;
        }

        /** MINLOC or MAXLOC (or REPLACE) on packed pairs of a {@code value}: the collectives' kernel. */
        private Combiner pairCombiner(AccumulateOp op, int value) {
            if (!op.onPairs() && op != REPLACE) {
                throw MpiErrors.error(ErrorClass.ERR_OP, "MPI_" + op + " is not defined on the pair types");
            }
            int slot = (op.ordinal() * BASES.length + value) * 2;
            Combiner combiner = pairs[slot];
            if (combiner == null) {
                TypeDescriptor pair = TypeDescriptor.pair("pair of " + BASES[value], BASES[value]);
                combiner = op == REPLACE ? (in, inout, count) -> MemorySegment.copy(in, 0, inout, 0,
                        (long) count * pair.byteSize())
                        : LocPairKernel.bind(op == MAXLOC, pair);
                pairs[slot] = combiner;
            }
            return combiner;
        }

        private static Combiner bind(AccumulateOp op, TypeDescriptor type, int elementBytes) {
            return switch (op) {
                case REPLACE -> (in, inout, count) -> MemorySegment.copy(in, 0, inout, 0,
                        (long) count * elementBytes);
                case NO_OP -> (in, inout, count) -> { };
                case MINLOC, MAXLOC -> throw MpiErrors.error(ErrorClass.ERR_OP, "MPI_" + op
                        + " is defined on the pair types only (MPI.INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT)");
                default -> PredefinedOp.valueOf(op.name()).bind(type);
            };
        }
    }
}
