package org.weft.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;

@Timeout(10)
class BufferMappingTest {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final TypeDescriptor BYTE = TypeDescriptor.predefined("MPI_BYTE", BaseType.BYTE, 1);
    private static final TypeDescriptor CHAR = TypeDescriptor.predefined("MPI_CHAR", BaseType.CHAR, 1);
    private static final TypeDescriptor DOUBLE = TypeDescriptor.predefined("MPI_DOUBLE", BaseType.DOUBLE, 1);

    @Test
    void arraysOfEveryTypeMapWithoutCopy() {
        Object[] arrays = {new byte[4], new char[4], new short[4], new int[4], new long[4], new float[4],
                new double[4]};
        BaseType[] types = {BaseType.BYTE, BaseType.CHAR, BaseType.SHORT, BaseType.INT, BaseType.LONG,
                BaseType.FLOAT, BaseType.DOUBLE};
        for (int i = 0; i < arrays.length; i++) {
            TypeDescriptor t = TypeDescriptor.predefined(types[i].name(), types[i], 1);
            MemorySegment s = BufferMapping.forSend(arrays[i], 3, t);
            assertEquals(3L * types[i].bytes(), s.byteSize(), types[i].name());
            assertTrue(s.heapBase().orElseThrow() == arrays[i], "no copy for " + types[i]);
        }
    }

    @Test
    void receiveIntoArrayWritesTheArray() {
        int[] data = {1, 2, 3, 4};
        MemorySegment s = BufferMapping.forReceive(data, 2, INT);
        s.set(ValueLayout.JAVA_INT_UNALIGNED, 4, 42);
        assertArrayEquals(new int[] {1, 42, 3, 4}, data);
    }

    @Test
    void directBufferIsAddressedFromZeroWhateverItsPosition() {
        ByteBuffer bytes = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        IntBuffer ints = bytes.asIntBuffer();
        ints.put(0, 7).put(1, 8);
        ints.position(3);
        MemorySegment s = BufferMapping.forSend(ints, 2, INT);
        assertEquals(8, s.byteSize());
        assertEquals(7, s.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        assertEquals(3, ints.position(), "position left unchanged");
    }

    @Test
    void sliceStartsAtItsOffset() {
        IntBuffer direct = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder()).asIntBuffer();
        direct.put(2, 99);
        IntBuffer slice = direct.duplicate().clear().position(2).slice();
        assertEquals(99, BufferMapping.forSend(slice, 1, INT).get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        int[] heap = {0, 0, 5};
        assertEquals(5, BufferMapping.forSend(IntBuffer.wrap(heap, 2, 1).slice(), 1, INT)
                .get(ValueLayout.JAVA_INT_UNALIGNED, 0));
    }

    @Test
    void booleansAreStagedAndCopiedBackOnlyAsFarAsReceived() {
        MemorySegment out = BufferMapping.forSend(new boolean[] {true, false, true}, 3,
                TypeDescriptor.predefined("MPI_BOOLEAN", BaseType.BOOLEAN, 1));
        assertEquals(1, out.get(ValueLayout.JAVA_BYTE, 2));
        boolean[] in = {false, false, true};
        TypeDescriptor bool = TypeDescriptor.predefined("MPI_BOOLEAN", BaseType.BOOLEAN, 1);
        MemorySegment staged = BufferMapping.forReceive(in, 3, bool);
        staged.set(ValueLayout.JAVA_BYTE, 0, (byte) 1);
        BufferMapping.finishReceive(in, 3, bool, staged, 2);
        assertArrayEquals(new boolean[] {true, false, true}, in);
    }

    @Test
    void badArgumentsGetTheirErrorClass() {
        assertClass(ErrorClass.ERR_COUNT, () -> BufferMapping.forSend(new int[4], -1, INT));
        assertClass(ErrorClass.ERR_TYPE, () -> BufferMapping.forSend(new int[4], 1, null));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(null, 1, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new int[4], 5, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new int[4], 1, DOUBLE));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend("text", 1, BYTE));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(ByteBuffer.allocateDirect(7), 2, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forReceive(
                ByteBuffer.allocateDirect(8).asReadOnlyBuffer(), 1, BYTE));
        TypeDescriptor dup = INT.duplicate();
        dup.free();
        assertClass(ErrorClass.ERR_TYPE, () -> BufferMapping.forSend(new int[4], 1, dup));
        assertClass(ErrorClass.ERR_TYPE, INT::free);
    }

    @Test
    void byteCountsTheBytesOfAnyArrayInPlaceInNativeOrder() {
        int[] ints = {0x04030201, 0x08070605};
        MemorySegment out = BufferMapping.forSend(ints, 6, BYTE);
        assertTrue(out.heapBase().orElseThrow() == ints, "no copy");
        assertEquals(6, out.byteSize());
        ByteBuffer expected = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putInt(ints[0]).putInt(ints[1]);
        for (int i = 0; i < 6; i++) {
            assertEquals(expected.get(i), out.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
        }
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(ints, 9, BYTE));
        for (Object array : new Object[] {new char[2], new short[2], new long[2], new float[2], new double[2]}) {
            long bytes = BufferMapping.availableBytes(array);
            assertEquals(bytes, BufferMapping.forSend(array, (int) bytes, BYTE).byteSize(), array.getClass() + "");
        }
    }

    @Test
    void receivingBytesIntoAnIntArrayWritesOnlyTheBytesReceived() {
        int[] ints = {-1, -1};
        MemorySegment in = BufferMapping.forReceive(ints, 6, BYTE);
        in.copyFrom(MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5, 6}));
        ByteBuffer memory = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putInt(ints[0]).putInt(ints[1]);
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, -1, -1}, memory.array());
    }

    @Test
    void anArrayHoldsTypesWhoseBaseElementIsNoLarger() {
        int[] ints = {0x00020001, 0x00040003};
        MemorySegment chars = BufferMapping.forSend(ints, 3, CHAR);
        assertEquals(6, chars.byteSize());
        CharBuffer expected = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putInt(ints[0]).putInt(ints[1])
                .flip().asCharBuffer();
        assertEquals(expected.get(2), chars.get(ValueLayout.JAVA_CHAR_UNALIGNED, 4));
        double[] doubles = {1.5, 2.5};
        assertEquals(Double.doubleToRawLongBits(2.5), BufferMapping.forSend(doubles, 4, INT)
                .get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(doubles, 5, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new byte[8], 1, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new boolean[8], 1, CHAR));
        MemorySegment bools = BufferMapping.forSend(new boolean[] {false, true}, 2, BYTE);
        assertEquals(1, bools.get(ValueLayout.JAVA_BYTE, 1), "booleans as bytes: staged 0 or 1");
    }

    @Test
    void aStructOfIntsPacksAndUnpacksAnIntArray() {
        TypeDescriptor twoInts = committed(DerivedTypes.struct(new int[] {1, 1}, new long[] {0, 8},
                new TypeDescriptor[] {INT, INT}));
        assertEquals(BaseType.BYTE, twoInts.base());
        int[] data = {10, 11, 12, 13, 14, 15};
        MemorySegment packed = BufferMapping.forSend(data, 2, twoInts);
        assertArrayEquals(new int[] {10, 12, 13, 15}, packed.toArray(ValueLayout.JAVA_INT));
        MemorySegment target = MemorySegment.ofArray(new int[4]);
        BufferMapping.pack(data, 2, twoInts, target);
        assertArrayEquals(new int[] {10, 12, 13, 15}, target.toArray(ValueLayout.JAVA_INT));
        int[] unpacked = new int[6];
        BufferMapping.unpack(target, unpacked, 2, twoInts);
        assertArrayEquals(new int[] {10, 0, 12, 13, 0, 15}, unpacked);
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new int[5], 2, twoInts));
    }

    @Test
    void aNullBufferHoldsZeroItems() {
        TypeDescriptor gaps = committed(DerivedTypes.vector(2, 1, 2, INT));
        for (TypeDescriptor type : new TypeDescriptor[] {INT, gaps}) {
            assertEquals(0, BufferMapping.forSend(null, 0, type).byteSize());
            MemorySegment in = BufferMapping.forReceive(null, 0, type);
            assertEquals(0, in.byteSize());
            BufferMapping.finishReceive(null, 0, type, in, 0);
            assertEquals(null, BufferMapping.stagedReceive(null, 0, type, in));
            BufferMapping.pack(null, 0, type, MemorySegment.ofArray(new byte[0]));
            BufferMapping.unpack(MemorySegment.ofArray(new byte[0]), null, 0, type);
            assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forReceive(null, 1, type));
        }
    }

    /** Three ints, each two ints before the last: items reach 16 bytes before the buffer's start. */
    private static TypeDescriptor backwards() {
        return committed(DerivedTypes.vector(3, 1, -2, INT));
    }

    @Test
    void aSliceMayReachBackIntoTheDirectBufferItWasCutFrom() {
        IntBuffer parent = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int i = 0; i < 8; i++) {
            parent.put(i, i);
        }
        IntBuffer slice = slice(parent, 4);
        assertArrayEquals(new int[] {4, 2, 0}, BufferMapping.forSend(slice, 1, backwards())
                .toArray(ValueLayout.JAVA_INT));
        MemorySegment in = BufferMapping.forReceive(slice, 1, backwards());
        in.copyFrom(MemorySegment.ofArray(new int[] {40, 20, 0}));
        BufferMapping.finishReceive(slice, 1, backwards(), in, 8);
        assertEquals(List.of(0, 1, 20, 3, 40, 5, 6, 7), ints(parent), "only the 8 bytes received are written");
        assertArrayEquals(new int[] {5, 3, 1}, BufferMapping.forSend(slice(slice(parent, 4), 1), 1, backwards())
                .toArray(ValueLayout.JAVA_INT), "a slice of a slice reaches into the first parent");
        assertArrayEquals(new int[] {6, 40, 20}, BufferMapping.forSend(parent.duplicate().clear().position(6)
                .slice(), 1, backwards()).toArray(ValueLayout.JAVA_INT), "any buffer inside a recorded parent");
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(slice(parent, 3), 1, backwards()));
        IntBuffer unrecorded = ByteBuffer.allocateDirect(32).asIntBuffer();
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(unrecorded.duplicate().clear().position(4)
                .slice(), 1, backwards()));
        IntBuffer readOnly = ByteBuffer.allocateDirect(32).asIntBuffer().asReadOnlyBuffer();
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(slice(readOnly, 4), 1, backwards()));
    }

    /** What {@code MPI.slice(buffer, offset)} does. */
    private static IntBuffer slice(IntBuffer buffer, int offset) {
        return EnclosingMemory.sliced(buffer.duplicate().clear().position(offset).slice(), buffer);
    }

    @Test
    void aHeapSliceMayReachAnywhereInItsArray() {
        int[] array = {0, 1, 2, 3, 4, 5, 6, 7};
        IntBuffer slice = IntBuffer.wrap(array, 4, 4).slice();
        assertArrayEquals(new int[] {4, 2, 0}, BufferMapping.forSend(slice, 1, backwards())
                .toArray(ValueLayout.JAVA_INT));
        byte[] packed = new byte[12];
        BufferMapping.pack(slice, 1, backwards(), MemorySegment.ofArray(packed));
        int[] other = new int[8];
        BufferMapping.unpack(MemorySegment.ofArray(packed), IntBuffer.wrap(other, 4, 4).slice(), 1, backwards());
        assertArrayEquals(new int[] {0, 0, 2, 0, 4, 0, 0, 0}, other);
        IntBuffer shortSlice = IntBuffer.wrap(array, 2, 2).slice();
        assertArrayEquals(new int[] {2, 3, 4, 5}, BufferMapping.forSend(shortSlice, 4, INT)
                .toArray(ValueLayout.JAVA_INT), "a contiguous type past the slice's end, inside its array");
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(shortSlice, 7, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(IntBuffer.wrap(array, 3, 5).slice(), 1,
                backwards()));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(array, 1, backwards()));
    }

    private static TypeDescriptor committed(TypeDescriptor type) {
        type.commit();
        return type;
    }

    private static List<Integer> ints(IntBuffer buffer) {
        List<Integer> ints = new ArrayList<>();
        for (int i = 0; i < buffer.capacity(); i++) {
            ints.add(buffer.get(i));
        }
        return ints;
    }

    private static void assertClass(int errorClass, Runnable call) {
        DeviceException e = assertThrows(DeviceException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
    }
}
