package org.weft.core.datatype;

import java.nio.Buffer;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * Whether a buffer can hold a message, in bytes of real memory: an array holds types of no larger base element;
 * items lie inside the buffer, or for a slice inside the memory it was cut from ({@link EnclosingMemory}). Every
 * failure is {@code ERR_BUFFER}. {@link BufferMapping} checks each message here; only items that reach outside their
 * buffer (rare) look further than a few comparisons.
 */
final class BufferBounds {
    private BufferBounds() {
    }

    /**
     * {@code ERR_BUFFER} unless the array {@code buffer} can hold {@code type}: a Java array is memory, as in the
     * bindings, so it holds any type whose base elements are no larger than its own ({@code MPI.BYTE} or a struct
     * with any array, {@code MPI.INT} with an {@code int[]} or a {@code double[]}), read and written as the bytes
     * the array holds in memory; a larger base element ({@code MPI.DOUBLE} with an {@code int[]}) is refused, as
     * the bindings would read past the array.
     */
    static void checkArrayHolds(Object buffer, TypeDescriptor type) {
        BaseType held = BaseType.heldBy(buffer.getClass());
        if (held == null) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "a " + buffer.getClass().getSimpleName()
                    + " is not a buffer (use a primitive array or a direct buffer)");
        }
        if (type.base().bytes() > held.bytes()) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "a " + buffer.getClass().getSimpleName() + " cannot hold "
                    + type + ": its " + type.base() + " elements are larger than the array's (use a "
                    + type.base().arrayClass().getSimpleName() + " or a direct buffer)");
        }
    }

    /**
     * {@code null} when {@code count} items of {@code type} lie inside {@code buffer}; else where the buffer lies in
     * the memory around it, which holds them — or {@code ERR_BUFFER}.
     */
    static EnclosingMemory.Placement outside(Object buffer, int count, TypeDescriptor type) {
        if (!reachesOutside(buffer, count, type)) {
            return null;
        }
        return holding(buffer, type.lowestByte(count), type.highestByte(count), count + " x " + type);
    }

    /**
     * Where {@code buffer} lies in the memory around it, which holds its bytes {@code low} (may be negative) to
     * {@code high}; {@code ERR_BUFFER}, naming {@code what} needs them, when there is no such memory.
     */
    static EnclosingMemory.Placement holding(Object buffer, long low, long high, String what) {
        EnclosingMemory.Placement around = around(buffer);
        if (around != null && around.origin() + low >= 0
                && around.origin() + high <= BufferMapping.availableBytes(around.memory())) {
            return around;
        }
        String memory = around == null ? "" : " (the memory it was cut from: bytes " + -around.origin() + " to "
                + (BufferMapping.availableBytes(around.memory()) - around.origin()) + ")";
        throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the buffer holds " + BufferMapping.availableBytes(buffer)
                + " bytes" + memory + " but " + what + " need bytes " + low + " to " + high);
    }

    /** True when {@code count} items of {@code type} laid from index 0 touch bytes outside {@code buffer}. */
    private static boolean reachesOutside(Object buffer, int count, TypeDescriptor type) {
        return count > 0 && type.byteSize() > 0
                && (type.lowestByte(count) < 0 || type.highestByte(count) > BufferMapping.availableBytes(buffer));
    }

    /** The memory around {@code buffer} (see {@link EnclosingMemory}), {@code null} when none is known. */
    private static EnclosingMemory.Placement around(Object buffer) {
        return buffer instanceof Buffer b ? EnclosingMemory.of(b) : null;
    }
}
