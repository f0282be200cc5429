package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import org.weft.core.datatype.BaseType;

/**
 * Accumulate-family updates of one 8-byte element — a {@code long} or a {@code double} on an 8-byte boundary — of a
 * window in shared memory, by the hardware: an atomic add, exchange or compare-and-exchange loop on the word, so
 * that {@code MPI_Fetch_and_op} and {@code MPI_Compare_and_swap} on such an element need not take the target's
 * accumulate lock ({@link DirectCalls}). To stay atomic against them, every other accumulate on such elements of
 * a shared window updates them through here too (under the lock, element by element: {@link SharedWindow}'s
 * access); elements of other types or off the boundary only ever change under the lock. The operations are the
 * collectives' kernels' ({@code LongKernel}, {@code DoubleKernel}): same results, bit for bit.
 */
final class WordAtomics {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final int LONG = BaseType.LONG.ordinal();
    private static final int DOUBLE = BaseType.DOUBLE.ordinal();

    private WordAtomics() {
    }

    /** Whether elements of {@code baseType} of {@code elementBytes} bytes are words served here (when aligned). */
    static boolean words(int baseType, int elementBytes) {
        return elementBytes == Long.BYTES && (baseType == LONG || baseType == DOUBLE);
    }

    /** Whether byte {@code offset} of {@code memory} lies on an 8-byte boundary (the same in every mapping). */
    static boolean aligned(MemorySegment memory, long offset) {
        return ((memory.address() + offset) & (Long.BYTES - 1)) == 0;
    }

    /**
     * Applies {@code op} with the operand's bits {@code in} to the word at {@code offset} ({@code word = in op
     * word}) atomically; returns the word's bits before. {@code op} is defined on the type (the origin checked).
     */
    static long update(MemorySegment memory, long offset, AccumulateOp op, boolean isDouble, long in) {
        switch (op) {
            case NO_OP -> {
                return (long) WORD.getVolatile(memory, offset);
            }
            case REPLACE -> {
                return (long) WORD.getAndSet(memory, offset, in);
            }
            case SUM -> {
                if (!isDouble) {
                    return (long) WORD.getAndAdd(memory, offset, in);
                }
            }
            default -> {
            }
        }
        long old = (long) WORD.getVolatile(memory, offset);
        while (true) {
            long witness = (long) WORD.compareAndExchange(memory, offset, old, next(op, isDouble, in, old));
            if (witness == old) {
                return old;
            }
            old = witness;
        }
    }

    /**
     * As {@link #update} for a word off the 8-byte boundary, which the hardware cannot update atomically: a plain
     * read and write, for a caller that holds the target's accumulate lock (nothing else changes such a word).
     */
    static long updateUnderLock(MemorySegment memory, long offset, AccumulateOp op, boolean isDouble, long in) {
        long old = memory.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        memory.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, next(op, isDouble, in, old));
        return old;
    }

    /** Compare-and-swap of the word at {@code offset}: {@code replacement} if it holds {@code expected}; old bits. */
    static long compareAndSwap(MemorySegment memory, long offset, long expected, long replacement) {
        return (long) WORD.compareAndExchange(memory, offset, expected, replacement);
    }

    /** The word's next bits: {@code in op old}. */
    private static long next(AccumulateOp op, boolean isDouble, long in, long old) {
        if (op == AccumulateOp.NO_OP) {
            return old;
        }
        if (op == AccumulateOp.REPLACE) {
            return in;
        }
        if (isDouble) {
            double a = Double.longBitsToDouble(old);
            double b = Double.longBitsToDouble(in);
            double r = switch (op) {
                case MAX -> Math.max(a, b);
                case MIN -> Math.min(a, b);
                case SUM -> a + b;
                case PROD -> a * b;
                default -> throw new IllegalStateException("MPI_" + op + " on a double");
            };
            return Double.doubleToRawLongBits(r);
        }
        return switch (op) {
            case MAX -> Math.max(old, in);
            case MIN -> Math.min(old, in);
            case SUM -> old + in;
            case PROD -> old * in;
            case LAND -> nonZero(old) & nonZero(in);
            case BAND -> old & in;
            case LOR -> nonZero(old | in);
            case BOR -> old | in;
            case LXOR -> nonZero(old) ^ nonZero(in);
            case BXOR -> old ^ in;
            default -> throw new IllegalStateException("MPI_" + op + " on a long");
        };
    }

    private static long nonZero(long x) {
        return (x | -x) >>> 63;
    }
}
