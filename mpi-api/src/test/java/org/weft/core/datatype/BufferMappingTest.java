package org.weft.core.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

@Timeout(10)
class BufferMappingTest {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final TypeDescriptor BYTE = TypeDescriptor.predefined("MPI_BYTE", BaseType.BYTE, 1);

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
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(new double[4], 1, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forSend(ByteBuffer.allocateDirect(7), 2, INT));
        assertClass(ErrorClass.ERR_BUFFER, () -> BufferMapping.forReceive(
                ByteBuffer.allocateDirect(8).asReadOnlyBuffer(), 1, BYTE));
        TypeDescriptor dup = INT.duplicate();
        dup.free();
        assertClass(ErrorClass.ERR_TYPE, () -> BufferMapping.forSend(new int[4], 1, dup));
        assertClass(ErrorClass.ERR_TYPE, INT::free);
    }

    private static void assertClass(int errorClass, Runnable call) {
        DeviceException e = assertThrows(DeviceException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
    }
}
