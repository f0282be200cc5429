package org.weft.core.coll.op;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;

/** User functions see typed arrays or byte buffers, their result lands in the inout segment, and staging is reused. */
@Timeout(30)
class StagingCombinerTest {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final TypeDescriptor BOOLEAN = TypeDescriptor.predefined("MPI_BOOLEAN", BaseType.BOOLEAN, 1);
    private static final TypeDescriptor DOUBLE_COMPLEX =
            TypeDescriptor.predefined("MPI_DOUBLE_COMPLEX", BaseType.DOUBLE, 2);

    @Test
    void arrayFunctionGetsIntArraysAndTheirStorageIsReused() {
        List<Object> seen = new ArrayList<>();
        Combiner minus = new ArrayStagingCombiner(INT, (in, inout, count) -> {
            int[] a = (int[]) in;
            int[] b = (int[]) inout;
            seen.add(a);
            for (int i = 0; i < count; i++) {
                b[i] = a[i] - b[i]; // not commutative: the order of the operands shows
            }
        });
        int[] result = {1, 2, 3};
        minus.combine(MemorySegment.ofArray(new int[] {10, 20, 30}), MemorySegment.ofArray(result), 3);
        assertArrayEquals(new int[] {9, 18, 27}, result);
        minus.combine(MemorySegment.ofArray(new int[] {0, 0, 0}), MemorySegment.ofArray(result), 3);
        assertArrayEquals(new int[] {-9, -18, -27}, result);
        assertEquals(2, seen.size());
        assertSame(seen.get(0), seen.get(1), "the staging array is allocated once");
    }

    @Test
    void arrayFunctionOnBooleansSeesBooleanArrays() {
        Combiner and = new ArrayStagingCombiner(BOOLEAN, (in, inout, count) -> {
            boolean[] a = (boolean[]) in;
            boolean[] b = (boolean[]) inout;
            for (int i = 0; i < count; i++) {
                b[i] = a[i] & b[i];
            }
        });
        MemorySegment inout = MemorySegment.ofArray(new byte[] {1, 1, 0, 0});
        and.combine(MemorySegment.ofArray(new byte[] {1, 0, 1, 0}), inout, 4);
        assertArrayEquals(new byte[] {1, 0, 0, 0}, inout.toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void arrayFunctionOnComplexGetsTwoDoublesPerItem() {
        Combiner sum = new ArrayStagingCombiner(DOUBLE_COMPLEX, (in, inout, count) -> {
            assertEquals(1, count);
            double[] a = assertInstanceOf(double[].class, in);
            double[] b = (double[]) inout;
            assertEquals(2, a.length);
            b[0] += a[0];
            b[1] += a[1];
        });
        double[] result = {1, 2};
        sum.combine(MemorySegment.ofArray(new double[] {3, 4}), MemorySegment.ofArray(result), 1);
        assertArrayEquals(new double[] {4, 6}, result);
    }

    @Test
    void bufferFunctionGetsNativeOrderDirectBuffers() {
        Combiner minus = new BufferStagingCombiner(INT, (in, inout, count) -> {
            assertEquals(true, in.isDirect());
            assertEquals(ByteOrder.nativeOrder(), inout.order());
            for (int i = 0; i < count; i++) {
                inout.putInt(4 * i, in.getInt(4 * i) - inout.getInt(4 * i));
            }
        });
        ByteBuffer direct = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
        direct.putInt(0, 1).putInt(4, 2);
        minus.combine(MemorySegment.ofArray(new int[] {10, 20}), MemorySegment.ofBuffer(direct), 2);
        assertEquals(9, direct.getInt(0));
        assertEquals(18, direct.getInt(4));
    }
}
