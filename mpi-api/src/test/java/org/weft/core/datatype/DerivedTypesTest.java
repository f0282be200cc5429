package org.weft.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;

/** Flattening of the type constructors to typemaps, bounds, and pack/unpack through {@link BufferMapping}. */
@Timeout(10)
class DerivedTypesTest {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final TypeDescriptor DOUBLE = TypeDescriptor.predefined("MPI_DOUBLE", BaseType.DOUBLE, 1);

    private static TypeDescriptor committed(TypeDescriptor type) {
        type.commit();
        return type;
    }

    @Test
    void contiguousCopiesMergeIntoOneRunAndStayZeroCopy() {
        TypeDescriptor four = committed(DerivedTypes.contiguous(4, INT));
        assertEquals("{(0, 16 x4)}", four.typemap().toString());
        assertTrue(four.isContiguous());
        assertEquals(16, four.extent());
        assertEquals(4, four.baseCount());
        int[] data = new int[8];
        assertSame(data, BufferMapping.forSend(data, 2, four).heapBase().orElseThrow(), "no copy");
    }

    @Test
    void vectorHasARunPerBlockAndAnExtentToTheLastBlock() {
        TypeDescriptor v = DerivedTypes.vector(3, 2, 4, INT);
        assertEquals("{(0, 8 x4), (16, 8 x4), (32, 8 x4)}", v.typemap().toString());
        assertEquals(24, v.byteSize());
        assertEquals(40, v.extent());
        assertEquals(0, v.trueLb());
        assertEquals(40, v.trueExtent());
        assertFalse(v.isContiguous());
        assertTrue(DerivedTypes.vector(3, 2, 2, INT).isContiguous(), "stride = block length is contiguous");
    }

    @Test
    void hvectorStrideIsInBytes() {
        TypeDescriptor h = DerivedTypes.hvector(2, 1, 12, DOUBLE);
        assertEquals("{(0, 8 x8), (12, 8 x8)}", h.typemap().toString());
        assertEquals(20, h.extent());
    }

    @Test
    void indexedKeepsTypeOrderAndPacksInIt() {
        TypeDescriptor t = committed(DerivedTypes.indexed(new int[] {1, 2}, new int[] {3, 0}, INT));
        assertEquals("{(12, 4 x4), (0, 8 x4)}", t.typemap().toString());
        assertEquals(0, t.lb());
        assertEquals(16, t.extent());
        MemorySegment packed = BufferMapping.forSend(new int[] {10, 11, 12, 13}, 1, t);
        assertArrayEquals(new int[] {13, 10, 11}, packed.toArray(ValueLayout.JAVA_INT_UNALIGNED));
    }

    @Test
    void structIsPaddedToItsLargestElementAndCountsInBytes() {
        TypeDescriptor doubleThenInt = DerivedTypes.struct(new int[] {1, 1}, new long[] {0, 8},
                new TypeDescriptor[] {DOUBLE, INT});
        assertEquals(BaseType.BYTE, doubleThenInt.base());
        assertEquals(12, doubleThenInt.byteSize());
        assertEquals(16, doubleThenInt.extent());
        assertEquals(12, doubleThenInt.trueExtent());
        assertEquals(2, doubleThenInt.elementsOf(12));
        assertEquals(3, doubleThenInt.elementsOf(20));
        assertEquals(-1, doubleThenInt.elementsOf(10));
    }

    @Test
    void resizedKeepsTheDataAndSetsTheBounds() {
        TypeDescriptor r = DerivedTypes.resized(INT, 0, 8);
        assertEquals(8, r.extent());
        assertEquals(2, r.inBaseUnits(r.extent()));
        assertEquals(4, r.byteSize());
        assertFalse(r.isContiguous());
        TypeDescriptor v = DerivedTypes.contiguous(3, r);
        assertEquals("{(0, 4 x4), (8, 4 x4), (16, 4 x4)}", v.typemap().toString());
        assertEquals(24, v.extent());
    }

    @Test
    void pairTypesAreLaidOutAsCStructs() {
        TypeDescriptor doubleInt = TypeDescriptor.pair("MPI_DOUBLE_INT", BaseType.DOUBLE);
        assertEquals(12, doubleInt.byteSize());
        assertEquals(16, doubleInt.extent());
        assertEquals(new PairLayout(BaseType.DOUBLE, 8, 16), doubleInt.pairLayout());
        assertEquals(8, doubleInt.pairLayout().packedIndexOffset());
        TypeDescriptor shortInt = TypeDescriptor.pair("MPI_SHORT_INT", BaseType.SHORT);
        assertEquals("{(0, 2 x2), (4, 4 x4)}", shortInt.typemap().toString());
        assertEquals(6, shortInt.byteSize());
        assertEquals(8, shortInt.extent());
        TypeDescriptor int2 = TypeDescriptor.pair("MPI_2INT", BaseType.INT);
        assertTrue(int2.isContiguous());
        assertEquals(2, int2.elementsOf(8));
    }

    @Test
    void packAndUnpackAVectorOfTwoItemsLeavingTheGapsAlone() {
        TypeDescriptor v = committed(DerivedTypes.vector(2, 1, 2, INT)); // ints 0 and 2, extent 3 ints
        int[] source = {1, 2, 3, 4, 5, 6};
        MemorySegment packed = BufferMapping.forSend(source, 2, v);
        assertArrayEquals(new int[] {1, 3, 4, 6}, packed.toArray(ValueLayout.JAVA_INT_UNALIGNED));
        int[] target = {-1, -1, -1, -1, -1, -1};
        MemorySegment staged = BufferMapping.forReceive(target, 2, v);
        MemorySegment.copy(packed, 0, staged, 0, 12); // three ints arrived, the fourth did not
        BufferMapping.finishReceive(target, 2, v, staged, 12);
        assertArrayEquals(new int[] {1, -1, 3, 4, -1, -1}, target);
    }

    @Test
    void directBuffersPackFromIndexZeroAndStagingIsReused() {
        TypeDescriptor v = committed(DerivedTypes.vector(2, 1, 2, INT));
        IntBuffer buffer = ByteBuffer.allocateDirect(24).order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int i = 0; i < 6; i++) {
            buffer.put(i, 10 + i);
        }
        buffer.position(5);
        MemorySegment first = BufferMapping.forSend(buffer, 2, v);
        assertArrayEquals(new int[] {10, 12, 13, 15}, first.toArray(ValueLayout.JAVA_INT_UNALIGNED));
        buffer.put(0, 99);
        MemorySegment second = BufferMapping.forSend(buffer, 2, v);
        assertSame(first, second, "the thread's staging for this buffer, type and count is reused");
        assertEquals(99, second.get(ValueLayout.JAVA_INT_UNALIGNED, 0), "and packed again");
        assertEquals(5, buffer.position());
    }

    @Test
    void booleansOfADerivedTypeArePacked() {
        TypeDescriptor bool = TypeDescriptor.predefined("MPI_BOOLEAN", BaseType.BOOLEAN, 1);
        TypeDescriptor v = committed(DerivedTypes.vector(2, 1, 2, bool));
        boolean[] in = {true, false, false, false};
        MemorySegment packed = BufferMapping.forSend(in, 1, v);
        assertArrayEquals(new byte[] {1, 0}, packed.toArray(ValueLayout.JAVA_BYTE));
        boolean[] out = new boolean[4];
        MemorySegment staged = BufferMapping.forReceive(out, 1, v);
        staged.set(ValueLayout.JAVA_BYTE, 1, (byte) 1);
        BufferMapping.finishReceive(out, 1, v, staged, 2);
        assertArrayEquals(new boolean[] {false, false, true, false}, out);
    }

    @Test
    void countsAndElementsOfReceivedBytes() {
        TypeDescriptor v = DerivedTypes.vector(3, 1, 2, INT);
        assertEquals(2, v.countOf(24));
        assertEquals(-1, v.countOf(20));
        assertEquals(5, v.elementsOf(20));
        assertEquals(-1, v.elementsOf(22));
        assertEquals(20, v.bytesOfElements(5));
    }

    @Test
    void typeErrors() {
        TypeDescriptor v = DerivedTypes.vector(2, 1, 2, INT);
        assertClass(ErrorClass.ERR_TYPE, () -> BufferMapping.forSend(new int[4], 1, v));
        v.commit();
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new int[5], 2, v));
        BufferMapping.forSend(new int[6], 2, v);
        TypeDescriptor below = committed(DerivedTypes.indexed(new int[] {1}, new int[] {-1}, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new int[4], 1, below));
        assertClass(ErrorClass.ERR_COUNT, () -> DerivedTypes.contiguous(-1, INT));
        assertClass(ErrorClass.ERR_TYPE, () -> DerivedTypes.contiguous(1, null));
        TypeDescriptor dup = v.duplicate();
        assertTrue(dup.isCommitted());
        dup.free();
        assertClass(ErrorClass.ERR_TYPE, () -> DerivedTypes.contiguous(2, dup));
        assertEquals(24, DerivedTypes.contiguous(2, v).extent(), "a type outlives nothing it was built from");
    }

    private static void assertClass(int errorClass, Runnable call) {
        DeviceException e = assertThrows(DeviceException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
    }
}
