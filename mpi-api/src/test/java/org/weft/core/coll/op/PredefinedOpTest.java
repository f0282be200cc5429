package org.weft.core.coll.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;

/**
 * Every predefined operation on every predefined datatype: the defined pairs give the value a scalar reference
 * computes (wrapping like Java arithmetic of the type, logical results 0 or 1), the others {@code ERR_OP}. The
 * operands sit at an odd byte offset to exercise unaligned access.
 */
@Timeout(30)
class PredefinedOpTest {
    private static final TypeDescriptor BYTE = TypeDescriptor.predefined("MPI_BYTE", BaseType.BYTE, 1);
    private static final TypeDescriptor CHAR = TypeDescriptor.predefined("MPI_CHAR", BaseType.CHAR, 1);
    private static final TypeDescriptor SHORT = TypeDescriptor.predefined("MPI_SHORT", BaseType.SHORT, 1);
    private static final TypeDescriptor BOOLEAN = TypeDescriptor.predefined("MPI_BOOLEAN", BaseType.BOOLEAN, 1);
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final TypeDescriptor LONG = TypeDescriptor.predefined("MPI_LONG", BaseType.LONG, 1);
    private static final TypeDescriptor FLOAT = TypeDescriptor.predefined("MPI_FLOAT", BaseType.FLOAT, 1);
    private static final TypeDescriptor DOUBLE = TypeDescriptor.predefined("MPI_DOUBLE", BaseType.DOUBLE, 1);
    private static final TypeDescriptor FLOAT_COMPLEX =
            TypeDescriptor.predefined("MPI_FLOAT_COMPLEX", BaseType.FLOAT, 2);
    private static final TypeDescriptor DOUBLE_COMPLEX =
            TypeDescriptor.predefined("MPI_DOUBLE_COMPLEX", BaseType.DOUBLE, 2);
    private static final TypeDescriptor DOUBLE_INT = TypeDescriptor.predefined("MPI_DOUBLE_INT", BaseType.BYTE, 16);

    private static final List<TypeDescriptor> INTEGERS = List.of(BYTE, CHAR, SHORT, INT, LONG);
    private static final List<TypeDescriptor> ALL = List.of(BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE,
            FLOAT_COMPLEX, DOUBLE_COMPLEX, DOUBLE_INT);

    /** The table of MPI 4.1 §6.9.2, stated here independently of the implementation. */
    private static boolean defined(PredefinedOp op, TypeDescriptor type) {
        boolean integer = INTEGERS.contains(type);
        boolean floating = type == FLOAT || type == DOUBLE;
        boolean complex = type == FLOAT_COMPLEX || type == DOUBLE_COMPLEX;
        return switch (op) {
            case MAX, MIN -> integer || floating;
            case SUM, PROD -> integer || floating || complex;
            case LAND, LOR, LXOR -> integer || type == BOOLEAN;
            case BAND, BOR, BXOR -> integer;
        };
    }

    static Stream<Arguments> everyPair() {
        List<Arguments> pairs = new ArrayList<>();
        for (PredefinedOp op : PredefinedOp.values()) {
            for (TypeDescriptor type : ALL) {
                pairs.add(Arguments.of(op, type));
            }
        }
        return pairs.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("everyPair")
    void definedPairsComputeAndOthersAreErrOp(PredefinedOp op, TypeDescriptor type) {
        if (!defined(op, type)) {
            DeviceException e = assertThrows(DeviceException.class, () -> op.bind(type));
            assertEquals(ErrorClass.ERR_OP, e.errorClass(), e.getMessage());
            return;
        }
        if (type == FLOAT_COMPLEX || type == DOUBLE_COMPLEX) {
            checkComplex(op, type);
            return;
        }
        long[] in = operands(type, 0);
        long[] inout = operands(type, 1);
        MemorySegment inSegment = write(type, in);
        MemorySegment inoutSegment = write(type, inout);
        op.bind(type).combine(inSegment, inoutSegment, in.length);
        for (int i = 0; i < in.length; i++) {
            if (type == FLOAT || type == DOUBLE) {
                double expected = referenceFloating(op, type, in[i], inout[i]);
                assertEquals(expected, readDouble(type, inoutSegment, i), 0.0, op + " element " + i);
            } else {
                long expected = referenceInteger(op, type, in[i], inout[i]);
                assertEquals(expected, read(type, inoutSegment, i), op + " on " + type + " element " + i
                        + " (" + in[i] + ", " + inout[i] + ")");
            }
        }
        assertArrayEquals(write(type, in).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                inSegment.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), "the in operand is not written");
    }

    /** Operand values: negatives, zero, one, values other than 0/1, and extremes that wrap. */
    private static long[] operands(TypeDescriptor type, int which) {
        if (type == BOOLEAN) {
            return which == 0 ? new long[] {0, 0, 1, 1} : new long[] {0, 1, 0, 1};
        }
        long[] a = {5, -3, 0, 1, 7, 0, 100, Long.MAX_VALUE, -128, 2};
        long[] b = {7, 0, -2, 1, 0, 0, 3, 2, -1, 40000};
        long[] source = which == 0 ? a : b;
        long[] values = new long[source.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = type == FLOAT || type == DOUBLE ? source[i] % 1000 : narrow(type, source[i]);
        }
        return values;
    }

    private static long referenceInteger(PredefinedOp op, TypeDescriptor type, long a, long b) {
        long r = switch (op) {
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case SUM -> a + b;
            case PROD -> a * b;
            case LAND -> (a != 0 && b != 0) ? 1 : 0;
            case LOR -> (a != 0 || b != 0) ? 1 : 0;
            case LXOR -> ((a != 0) != (b != 0)) ? 1 : 0;
            case BAND -> a & b;
            case BOR -> a | b;
            case BXOR -> a ^ b;
        };
        return narrow(type, r);
    }

    private static double referenceFloating(PredefinedOp op, TypeDescriptor type, long a, long b) {
        if (type == FLOAT) {
            float x = a / 4f;
            float y = b / 4f;
            return switch (op) {
                case MAX -> Math.max(x, y);
                case MIN -> Math.min(x, y);
                case SUM -> x + y;
                case PROD -> x * y;
                default -> throw new AssertionError(op);
            };
        }
        double x = a / 4.0;
        double y = b / 4.0;
        return switch (op) {
            case MAX -> Math.max(x, y);
            case MIN -> Math.min(x, y);
            case SUM -> x + y;
            case PROD -> x * y;
            default -> throw new AssertionError(op);
        };
    }

    /** The value as the type holds it: wrapped, {@code char} unsigned, {@code boolean} 0/1. */
    private static long narrow(TypeDescriptor type, long v) {
        return switch (type.base()) {
            case BYTE -> (byte) v;
            case BOOLEAN -> v != 0 ? 1 : 0;
            case CHAR -> (char) v;
            case SHORT -> (short) v;
            case INT -> (int) v;
            default -> v;
        };
    }

    /** A segment at an odd offset holding {@code values} (floating types hold value / 4). */
    private static MemorySegment write(TypeDescriptor type, long[] values) {
        int size = type.base().bytes();
        MemorySegment s = MemorySegment.ofArray(new byte[1 + values.length * size]).asSlice(1);
        for (int i = 0; i < values.length; i++) {
            long off = (long) i * size;
            switch (type.base()) {
                case BYTE, BOOLEAN -> s.set(java.lang.foreign.ValueLayout.JAVA_BYTE, off, (byte) values[i]);
                case CHAR -> s.set(java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED, off, (char) values[i]);
                case SHORT -> s.set(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) values[i]);
                case INT -> s.set(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off, (int) values[i]);
                case LONG -> s.set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, off, values[i]);
                case FLOAT -> s.set(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, off, values[i] / 4f);
                case DOUBLE -> s.set(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, off, values[i] / 4.0);
            }
        }
        return s;
    }

    private static long read(TypeDescriptor type, MemorySegment s, int i) {
        long off = (long) i * type.base().bytes();
        return switch (type.base()) {
            case BYTE, BOOLEAN -> s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, off);
            case CHAR -> s.get(java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED, off);
            case SHORT -> s.get(java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, off);
            case INT -> s.get(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, off);
            case LONG -> s.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, off);
            default -> throw new AssertionError(type);
        };
    }

    private static double readDouble(TypeDescriptor type, MemorySegment s, int i) {
        long off = (long) i * type.base().bytes();
        return type == FLOAT ? s.get(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, off)
                : s.get(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, off);
    }

    /** (1+2i)(3−4i) = 11+2i; (1+2i)+(3−4i) = 4−2i; two items, the second a real product. */
    private static void checkComplex(PredefinedOp op, TypeDescriptor type) {
        double[] in = {1, 2, 2, 0};
        double[] inout = {3, -4, 5, 0};
        MemorySegment a = complexSegment(type, in);
        MemorySegment b = complexSegment(type, inout);
        op.bind(type).combine(a, b, 2);
        double[] expected = op == PredefinedOp.SUM ? new double[] {4, -2, 7, 0} : new double[] {11, 2, 10, 0};
        double[] actual = new double[4];
        for (int i = 0; i < 4; i++) {
            actual[i] = type == FLOAT_COMPLEX ? b.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                    : b.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
        }
        assertArrayEquals(expected, actual, 0.0, op + " on " + type);
    }

    private static MemorySegment complexSegment(TypeDescriptor type, double[] parts) {
        int size = type.base().bytes();
        MemorySegment s = MemorySegment.ofArray(new byte[1 + parts.length * size]).asSlice(1);
        for (int i = 0; i < parts.length; i++) {
            if (type == FLOAT_COMPLEX) {
                s.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) parts[i]);
            } else {
                s.setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i, parts[i]);
            }
        }
        return s;
    }

    @Test
    void logicalAndOfNonBooleanIntsIsOne() {
        int[] in = {5, -3, 0, 2};
        int[] inout = {7, 9, 4, 0};
        PredefinedOp.LAND.bind(INT).combine(MemorySegment.ofArray(in), MemorySegment.ofArray(inout), 4);
        assertArrayEquals(new int[] {1, 1, 0, 0}, inout);
        int[] or = {0, 6, 0, -1};
        PredefinedOp.LOR.bind(INT).combine(MemorySegment.ofArray(new int[] {0, 0, 3, -1}), MemorySegment.ofArray(or), 4);
        assertArrayEquals(new int[] {0, 1, 1, 1}, or);
        int[] xor = {0, 6, 0, -1};
        PredefinedOp.LXOR.bind(INT).combine(MemorySegment.ofArray(new int[] {0, 0, 3, -1}), MemorySegment.ofArray(xor), 4);
        assertArrayEquals(new int[] {0, 1, 1, 0}, xor);
    }

    @Test
    void freedOrNullTypeIsErrType() {
        TypeDescriptor dup = INT.duplicate();
        dup.free();
        assertEquals(ErrorClass.ERR_TYPE, assertThrows(DeviceException.class, () -> PredefinedOp.SUM.bind(dup))
                .errorClass());
        assertEquals(ErrorClass.ERR_TYPE, assertThrows(DeviceException.class, () -> PredefinedOp.SUM.bind(null))
                .errorClass());
    }

    @Test
    void aDuplicatedTypeReducesLikeItsOriginal() {
        long[] inout = {3, 4};
        MemorySegment out = MemorySegment.ofArray(inout);
        PredefinedOp.PROD.bind(LONG.duplicate()).combine(MemorySegment.ofArray(new long[] {5, -6}), out, 2);
        assertArrayEquals(new long[] {15, -24}, inout);
    }

    /**
     * The floating-point kernels reduce in chunks: a vector longer than several chunks and not a multiple of one,
     * at an odd offset, with native and heap segments mixed both ways, gives every element its reference value.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("floatingOps")
    void floatingKernelsAcrossChunksAndSegmentKinds(PredefinedOp op) {
        int n = 3 * KernelScratch.CHUNK_BYTES / Float.BYTES + 7;
        for (boolean nativeIn : new boolean[] {true, false}) {
            MemorySegment in = segment(nativeIn, 4L * n + 1).asSlice(1);
            MemorySegment io = segment(!nativeIn, 4L * n + 1).asSlice(1);
            float[] expected = new float[n];
            for (int i = 0; i < n; i++) {
                float a = (i % 13) - 6;
                float b = (i % 7) + 0.5f;
                in.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i, a);
                io.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i, b);
                expected[i] = switch (op) {
                    case MAX -> Math.max(a, b);
                    case MIN -> Math.min(a, b);
                    case SUM -> a + b;
                    default -> a * b;
                };
            }
            op.bind(FLOAT).combine(in, io, n);
            for (int i = 0; i < n; i++) {
                assertEquals(expected[i], io.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i),
                        op + " element " + i + (nativeIn ? " (native in, heap inout)" : " (heap in, native inout)"));
            }
        }
        double[] doubles = new double[KernelScratch.CHUNK_BYTES / Double.BYTES * 2 + 3];
        java.util.Arrays.fill(doubles, 2.0);
        MemorySegment io = MemorySegment.ofArray(doubles.clone());
        op.bind(DOUBLE).combine(MemorySegment.ofArray(doubles), io, doubles.length);
        double twoOpTwo = op == PredefinedOp.SUM || op == PredefinedOp.PROD ? 4.0 : 2.0;
        for (int i = 0; i < doubles.length; i++) {
            assertEquals(twoOpTwo, io.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, i), op + " double " + i);
        }
    }

    /**
     * The integer kernels reduce in chunks too: for every operation on every integer type (and the logical ones on
     * {@code BOOLEAN}), a vector of an odd length spanning several chunks, at odd byte offsets, with native and heap
     * segments mixed both ways, gives every element the scalar reference's value; {@code in} is not written.
     */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("integerPairs")
    void integerKernelsAcrossChunksAndSegmentKinds(PredefinedOp op, TypeDescriptor type) {
        int size = type.base().bytes();
        int n = 3 * KernelScratch.CHUNK_BYTES / size + 7;
        java.util.Random random = new java.util.Random(25L * op.ordinal() + size);
        for (boolean nativeIn : new boolean[] {true, false}) {
            long[] a = new long[n];
            long[] b = new long[n];
            for (int i = 0; i < n; i++) {
                a[i] = sample(type, random, i);
                b[i] = sample(type, random, i + 1);
            }
            MemorySegment in = fill(type, segment(nativeIn, (long) size * n + 3).asSlice(3), a);
            MemorySegment io = fill(type, segment(!nativeIn, (long) size * n + 1).asSlice(1), b);
            byte[] inBefore = in.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            op.bind(type).combine(in, io, n);
            for (int i = 0; i < n; i++) {
                assertEquals(referenceInteger(op, type, a[i], b[i]), read(type, io, i), op + " on " + type
                        + " element " + i + " (" + a[i] + ", " + b[i] + (nativeIn ? ", native in)" : ", heap in)"));
            }
            assertArrayEquals(inBefore, in.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), "in is not written");
        }
    }

    static Stream<Arguments> integerPairs() {
        List<Arguments> pairs = new ArrayList<>();
        for (PredefinedOp op : PredefinedOp.values()) {
            for (TypeDescriptor type : INTEGERS) {
                pairs.add(Arguments.of(op, type));
            }
            if (op == PredefinedOp.LAND || op == PredefinedOp.LOR || op == PredefinedOp.LXOR) {
                pairs.add(Arguments.of(op, BOOLEAN));
            }
        }
        return pairs.stream();
    }

    /** A value of the type: every third one 0 (the logical operations' case), else random bits, wrapped. */
    private static long sample(TypeDescriptor type, java.util.Random random, int i) {
        if (type == BOOLEAN) {
            return random.nextInt(2);
        }
        return i % 3 == 0 ? 0 : narrow(type, random.nextLong());
    }

    /** {@code values} written into {@code s} as the type holds them; returns {@code s}. */
    private static MemorySegment fill(TypeDescriptor type, MemorySegment s, long[] values) {
        MemorySegment.copy(write(type, values), 0, s, 0, (long) values.length * type.base().bytes());
        return s;
    }

    /**
     * {@code combineInto} writes {@code in op inout} to a third segment, or to either operand, leaving the operands
     * it does not write as they were: a predefined kernel (int SUM, across a chunk's end) and the default of other
     * combiners (a subtraction, whose operands' order shows), which combines into {@code inout} when {@code out} is
     * {@code in}.
     */
    @Test
    void combineIntoWritesInOpInoutWhereverItIsTold() {
        int n = KernelScratch.CHUNK_BYTES / Integer.BYTES + 3;
        int[] a = new int[n];
        int[] b = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
            b[i] = 3 * i - 7;
        }
        Combiner sum = PredefinedOp.SUM.bind(INT);
        Combiner minus = (in, inout, count) -> {
            for (int i = 0; i < count; i++) {
                inout.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i,
                        in.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i)
                                - inout.getAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, i));
            }
        };
        for (Combiner op : List.of(sum, minus)) {
            int[] expected = new int[n];
            for (int i = 0; i < n; i++) {
                expected[i] = op == sum ? a[i] + b[i] : a[i] - b[i];
            }
            int[] in = a.clone();
            int[] inout = b.clone();
            int[] out = new int[n];
            op.combineInto(MemorySegment.ofArray(in), MemorySegment.ofArray(inout), MemorySegment.ofArray(out), n);
            assertArrayEquals(expected, out, "into a third segment");
            assertArrayEquals(a, in, "in untouched");
            assertArrayEquals(b, inout, "inout untouched");
            MemorySegment inSegment = Arena.ofAuto().allocate(4L * n);
            MemorySegment.copy(a, 0, inSegment, java.lang.foreign.ValueLayout.JAVA_INT, 0, n);
            op.combineInto(inSegment, MemorySegment.ofArray(b.clone()), inSegment, n);
            assertArrayEquals(expected, inSegment.toArray(java.lang.foreign.ValueLayout.JAVA_INT), "into in");
            int[] intoInout = b.clone();
            op.combineInto(MemorySegment.ofArray(a), MemorySegment.ofArray(intoInout), MemorySegment.ofArray(intoInout),
                    n);
            assertArrayEquals(expected, intoInout, "into inout");
        }
    }

    static Stream<PredefinedOp> floatingOps() {
        return Stream.of(PredefinedOp.MAX, PredefinedOp.MIN, PredefinedOp.SUM, PredefinedOp.PROD);
    }

    private static MemorySegment segment(boolean nativeMemory, long bytes) {
        return nativeMemory ? Arena.ofAuto().allocate(bytes) : MemorySegment.ofArray(new byte[(int) bytes]);
    }
}
