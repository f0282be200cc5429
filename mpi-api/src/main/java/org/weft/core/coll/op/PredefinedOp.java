package org.weft.core.coll.op;

import org.weft.adi.ErrorClass;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * The predefined reduction operations that Weft computes, and which datatypes each accepts (MPI 4.1 §6.9.2,
 * with Java's types): MAX, MIN, SUM, PROD on the integer types ({@code BYTE, SHORT, CHAR, INT, LONG}) and on
 * {@code FLOAT, DOUBLE}; SUM and PROD also on the complex types; LAND, LOR, LXOR on the integer types and
 * {@code BOOLEAN}, yielding 0 or 1; BAND, BOR, BXOR on the integer types. Any other pair is {@code ERR_OP}.
 * All are commutative.
 */
public enum PredefinedOp {
    MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR;

    /** The combiner of this operation on {@code type}; {@code ERR_OP} if the pair makes no sense. */
    public Combiner bind(TypeDescriptor type) {
        TypeDescriptor.check(type);
        BaseType base = type.base();
        if (type.baseCount() == 2 && (base == BaseType.FLOAT || base == BaseType.DOUBLE)) {
            return complex(type);
        }
        if (type.baseCount() != 1 || !accepts(base)) {
            throw MpiErrors.error(ErrorClass.ERR_OP, "MPI_" + name() + " is not defined on " + type);
        }
        return switch (base) {
            case BYTE, BOOLEAN -> new KernelCombiner(this, ByteKernel::apply);
            case SHORT -> new KernelCombiner(this, ShortKernel::apply);
            case CHAR -> new KernelCombiner(this, CharKernel::apply);
            case INT -> new KernelCombiner(this, IntKernel::apply);
            case LONG -> new KernelCombiner(this, LongKernel::apply);
            case FLOAT -> new KernelCombiner(this, FloatKernel::apply);
            case DOUBLE -> new KernelCombiner(this, DoubleKernel::apply);
        };
    }

    private boolean accepts(BaseType base) {
        boolean integer = switch (base) {
            case BYTE, SHORT, CHAR, INT, LONG -> true;
            default -> false;
        };
        boolean floating = base == BaseType.FLOAT || base == BaseType.DOUBLE;
        return switch (this) {
            case MAX, MIN, SUM, PROD -> integer || floating;
            case LAND, LOR, LXOR -> integer || base == BaseType.BOOLEAN;
            case BAND, BOR, BXOR -> integer;
        };
    }

    private Combiner complex(TypeDescriptor type) {
        boolean isFloat = type.base() == BaseType.FLOAT;
        return switch (this) {
            case SUM -> new KernelCombiner(SUM, isFloat ? FloatKernel::apply : DoubleKernel::apply, 2);
            case PROD -> isFloat
                    ? (in, io, count) -> ComplexKernel.floatProduct(in, io, count)
                    : (in, io, count) -> ComplexKernel.doubleProduct(in, io, count);
            default -> throw MpiErrors.error(ErrorClass.ERR_OP,
                    "MPI_" + name() + " is not defined on " + type);
        };
    }
}
