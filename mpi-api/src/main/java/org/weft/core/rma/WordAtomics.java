package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import org.weft.core.datatype.BaseType;

/**
 * Accumulate-family updates of one element of a window in shared memory by the hardware — a <em>word</em>: an
 * {@code int} or {@code float} on a 4-byte boundary, a {@code long} or {@code double} on an 8-byte one. An atomic
 * add, exchange or compare-and-exchange loop on the word, so that {@code MPI_Fetch_and_op} and
 * {@code MPI_Compare_and_swap} on such an element need not take the target's accumulate lock ({@link DirectCalls}).
 * To stay atomic against them, every other accumulate on such elements of a shared window updates them through
 * here too (under the lock, element by element: {@link SharedWindow}'s access); elements of other types or off
 * their boundary only ever change under the lock. A word's bits travel in a {@code long}: a 4-byte word's
 * sign-extended. The operations are the collectives' kernels' ({@code IntKernel}, {@code LongKernel},
 * {@code FloatKernel}, {@code DoubleKernel}): same results, bit for bit. ({@code short} and {@code byte} are left
 * to the lock: the hardware has no atomic add of its own for them that Java reaches.)
 */
final class WordAtomics {
    /** The element types served here: their width, and whether their bits are a floating-point number. */
    enum Word {
        INT(Integer.BYTES, false),
        LONG(Long.BYTES, false),
        FLOAT(Float.BYTES, true),
        DOUBLE(Double.BYTES, true);

        private final int bytes;
        private final boolean floating;

        Word(int bytes, boolean floating) {
            this.bytes = bytes;
            this.floating = floating;
        }

        int bytes() {
            return bytes;
        }

        boolean floating() {
            return floating;
        }
    }

    private static final VarHandle WIDE = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle NARROW = ValueLayout.JAVA_INT.varHandle();
    private static final Word[] BY_BASE_TYPE = new Word[BaseType.values().length];

    static {
        BY_BASE_TYPE[BaseType.INT.ordinal()] = Word.INT;
        BY_BASE_TYPE[BaseType.LONG.ordinal()] = Word.LONG;
        BY_BASE_TYPE[BaseType.FLOAT.ordinal()] = Word.FLOAT;
        BY_BASE_TYPE[BaseType.DOUBLE.ordinal()] = Word.DOUBLE;
    }

    private WordAtomics() {
    }

    /** The word elements of {@code baseType} of {@code elementBytes} bytes are (served when aligned), or null. */
    static Word word(int baseType, int elementBytes) {
        Word word = baseType >= 0 && baseType < BY_BASE_TYPE.length ? BY_BASE_TYPE[baseType] : null;
        return word != null && word.bytes == elementBytes ? word : null;
    }

    /** Whether byte {@code offset} of {@code memory} lies on {@code word}'s boundary (the same in every mapping). */
    static boolean aligned(MemorySegment memory, long offset, Word word) {
        return ((memory.address() + offset) & (word.bytes - 1)) == 0;
    }

    /** The bits of the {@code word} at byte {@code at} of {@code memory}, any alignment (an operand, a result). */
    static long read(MemorySegment memory, long at, Word word) {
        return word.bytes == Long.BYTES ? memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at)
                : memory.get(ValueLayout.JAVA_INT_UNALIGNED, at);
    }

    /** Stores {@code bits} as the {@code word} at byte {@code at} of {@code memory}, any alignment. */
    static void write(MemorySegment memory, long at, Word word, long bits) {
        if (word.bytes == Long.BYTES) {
            memory.set(ValueLayout.JAVA_LONG_UNALIGNED, at, bits);
        } else {
            memory.set(ValueLayout.JAVA_INT_UNALIGNED, at, (int) bits);
        }
    }

    /**
     * Applies {@code op} with the operand's bits {@code in} to the word at {@code offset} ({@code word = in op
     * word}) atomically; returns the word's bits before. {@code op} is defined on the type (the origin checked).
     */
    static long update(MemorySegment memory, long offset, AccumulateOp op, Word word, long in) {
        boolean wide = word.bytes == Long.BYTES;
        switch (op) {
            case NO_OP -> {
                return wide ? (long) WIDE.getVolatile(memory, offset) : (int) NARROW.getVolatile(memory, offset);
            }
            case REPLACE -> {
                return wide ? (long) WIDE.getAndSet(memory, offset, in)
                        : (int) NARROW.getAndSet(memory, offset, (int) in);
            }
            case SUM -> {
                if (!word.floating) {
                    return wide ? (long) WIDE.getAndAdd(memory, offset, in)
                            : (int) NARROW.getAndAdd(memory, offset, (int) in);
                }
            }
            default -> {
            }
        }
        return wide ? updateWide(memory, offset, op, word, in) : updateNarrow(memory, offset, op, word, in);
    }

    private static long updateWide(MemorySegment memory, long offset, AccumulateOp op, Word word, long in) {
        long old = (long) WIDE.getVolatile(memory, offset);
        while (true) {
            long witness = (long) WIDE.compareAndExchange(memory, offset, old, next(op, word, in, old));
            if (witness == old) {
                return old;
            }
            old = witness;
        }
    }

    private static long updateNarrow(MemorySegment memory, long offset, AccumulateOp op, Word word, long in) {
        int old = (int) NARROW.getVolatile(memory, offset);
        while (true) {
            int witness = (int) NARROW.compareAndExchange(memory, offset, old, (int) next(op, word, in, old));
            if (witness == old) {
                return old;
            }
            old = witness;
        }
    }

    /**
     * As {@link #update} for a word off its boundary, which the hardware cannot update atomically: a plain read
     * and write, for a caller that holds the target's accumulate lock (nothing else changes such a word).
     */
    static long updateUnderLock(MemorySegment memory, long offset, AccumulateOp op, Word word, long in) {
        long old = read(memory, offset, word);
        write(memory, offset, word, next(op, word, in, old));
        return old;
    }

    /** Compare-and-swap of the word at {@code offset}: {@code replacement} if it holds {@code expected}; old bits. */
    static long compareAndSwap(MemorySegment memory, long offset, Word word, long expected, long replacement) {
        return word.bytes == Long.BYTES ? (long) WIDE.compareAndExchange(memory, offset, expected, replacement)
                : (int) NARROW.compareAndExchange(memory, offset, (int) expected, (int) replacement);
    }

    /** The word's next bits: {@code in op old} (of a 4-byte word, the low half counts). */
    private static long next(AccumulateOp op, Word word, long in, long old) {
        if (op == AccumulateOp.NO_OP) {
            return old;
        }
        if (op == AccumulateOp.REPLACE) {
            return in;
        }
        if (word == Word.DOUBLE) {
            return Double.doubleToRawLongBits(floating(op, Double.longBitsToDouble(old), Double.longBitsToDouble(in)));
        }
        if (word == Word.FLOAT) { // in double, rounded once: the float result exactly (53 >= 2 * 24 + 2 bits)
            double r = floating(op, Float.intBitsToFloat((int) old), Float.intBitsToFloat((int) in));
            return Float.floatToRawIntBits((float) r);
        }
        return integer(op, old, in);
    }

    private static double floating(AccumulateOp op, double a, double b) {
        return switch (op) {
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case SUM -> a + b;
            case PROD -> a * b;
            default -> throw new IllegalStateException("MPI_" + op + " on a floating-point word");
        };
    }

    /** An integer word's next value; for an {@code int}, both operands sign-extended and the low half kept. */
    private static long integer(AccumulateOp op, long old, long in) {
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
            default -> throw new IllegalStateException("MPI_" + op + " on an integer");
        };
    }

    private static long nonZero(long x) {
        return (x | -x) >>> 63;
    }
}
