package org.weft.core.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies items of a non-contiguous type between the user's memory and a packed segment (the bytes in type
 * order, without gaps): one {@code MemorySegment.copy} per block of the type's {@link Typemap#copyBlocks()},
 * nothing allocated. The user's memory is a segment over an array or buffer, or a {@code boolean[]}, which has
 * no segment view and is copied byte by byte (one byte per boolean, 0 or 1); the items start at byte
 * {@code origin} of it (0 but for a slice whose items reach before its start, see {@link EnclosingMemory}).
 */
final class Packer {
    private Packer() {
    }

    /** Packs {@code count} items from {@code user}, starting at its byte {@code origin}, into {@code packed}. */
    static void pack(Object user, long origin, int count, TypeDescriptor type, MemorySegment packed) {
        traverse(user, origin, count, type, packed, packed.byteSize(), true);
    }

    /**
     * Unpacks the first {@code packedBytes} bytes of {@code packed} into up to {@code count} items of {@code user}
     * starting at its byte {@code origin}.
     */
    static void unpack(MemorySegment packed, long packedBytes, Object user, long origin, int count,
                       TypeDescriptor type) {
        traverse(user, origin, count, type, packed, packedBytes, false);
    }

    private static void traverse(Object user, long origin, int count, TypeDescriptor type, MemorySegment packed,
                                 long limit, boolean toPacked) {
        Typemap blocks = type.typemap().copyBlocks();
        long extent = type.extent();
        long position = 0;
        for (int item = 0; item < count && position < limit; item++) {
            long itemStart = origin + item * extent;
            for (int b = 0; b < blocks.runs() && position < limit; b++) {
                long length = Math.min(blocks.length(b), limit - position);
                copy(user, itemStart + blocks.offset(b), packed, position, length, toPacked);
                position += length;
            }
        }
    }

    private static void copy(Object user, long userOffset, MemorySegment packed, long packedOffset, long length,
                             boolean toPacked) {
        if (user instanceof boolean[] booleans) {
            int first = Math.toIntExact(userOffset);
            for (int i = 0; i < length; i++) {
                if (toPacked) {
                    packed.set(ValueLayout.JAVA_BYTE, packedOffset + i, booleans[first + i] ? (byte) 1 : (byte) 0);
                } else {
                    booleans[first + i] = packed.get(ValueLayout.JAVA_BYTE, packedOffset + i) != 0;
                }
            }
        } else if (toPacked) {
            MemorySegment.copy((MemorySegment) user, userOffset, packed, packedOffset, length);
        } else {
            MemorySegment.copy(packed, packedOffset, (MemorySegment) user, userOffset, length);
        }
    }
}
