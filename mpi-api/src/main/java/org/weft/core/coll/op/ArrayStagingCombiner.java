package org.weft.core.coll.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;

import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;

/**
 * Runs a user reduction that takes Java arrays (the {@code Object} form of {@code mpi.UserFunction.call}): the
 * two operands are copied into arrays of the type's base type, the function runs, and the result is copied
 * back. The arrays are allocated on the first call and reused, so a collective allocates them once, whatever
 * the number of steps.
 */
public final class ArrayStagingCombiner implements Combiner {
    /** A user function over arrays: combines {@code count} items of {@code in} into {@code inout}. */
    @FunctionalInterface
    public interface ArrayFunction {
        void apply(Object in, Object inout, int count);
    }

    private final TypeDescriptor type;
    private final ArrayFunction function;
    private Object inArray;
    private Object inoutArray;
    private MemorySegment inView;
    private MemorySegment inoutView;

    public ArrayStagingCombiner(TypeDescriptor type, ArrayFunction function) {
        this.type = type;
        this.function = function;
    }

    @Override
    public void combine(MemorySegment in, MemorySegment inout, int count) {
        int elements = count * type.baseCount();
        if (inArray == null || Array.getLength(inArray) < elements) {
            inArray = newArray(elements);
            inoutArray = newArray(elements);
            inView = viewOf(inArray);
            inoutView = viewOf(inoutArray);
        }
        long bytes = (long) count * type.byteSize();
        load(in, inArray, inView, bytes);
        load(inout, inoutArray, inoutView, bytes);
        function.apply(inArray, inoutArray, count);
        store(inoutArray, inoutView, inout, bytes);
    }

    private Object newArray(int elements) {
        return Array.newInstance(type.base().arrayClass().componentType(), elements);
    }

    /** A segment over a primitive array; none for {@code boolean[]}, which is converted element by element. */
    private static MemorySegment viewOf(Object array) {
        return BufferMapping.arraySegment(array);
    }

    private static void load(MemorySegment from, Object array, MemorySegment view, long bytes) {
        if (array instanceof boolean[] booleans) {
            for (int i = 0; i < bytes; i++) {
                booleans[i] = from.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
        } else {
            MemorySegment.copy(from, 0, view, 0, bytes);
        }
    }

    private static void store(Object array, MemorySegment view, MemorySegment to, long bytes) {
        if (array instanceof boolean[] booleans) {
            for (int i = 0; i < bytes; i++) {
                to.set(ValueLayout.JAVA_BYTE, i, booleans[i] ? (byte) 1 : (byte) 0);
            }
        } else {
            MemorySegment.copy(view, 0, to, 0, bytes);
        }
    }
}
