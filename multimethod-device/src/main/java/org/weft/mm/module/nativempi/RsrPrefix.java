package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The bytes this module puts before each RSR body in its MPI message. One MPI message carries one RSR, all with one
 * tag on the module's own communicator; MPI's matching is not used beyond that (Weft matches above the module).
 *
 * <pre>
 *  0               2               4                               8
 *  +---------------+---------------+-------------------------------+------------------
 *  | endpoint u16  | handler u16   | sender's Weft rank i32        | body (header, payload)
 *  +---------------+---------------+-------------------------------+------------------
 *  little-endian
 * </pre>
 * The Weft rank travels with the RSR because a native rank does not tell it: a native job may be one site of a
 * larger Weft world, and an RSR may arrive before this process has connected back to its sender.
 */
final class RsrPrefix {
    static final int ENDPOINT_OFFSET = 0;
    static final int HANDLER_OFFSET = 2;
    static final int SOURCE_OFFSET = 4;
    static final int LENGTH = 8;
    static final int MAX_ID = 0xFFFF;
    /** The one MPI tag of every RSR. */
    static final int TAG = 0x3ef; // below 32767, the smallest MPI_TAG_UB the standard allows

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private RsrPrefix() {
    }

    static void write(MemorySegment message, int endpointId, int handlerId, int sourceRank) {
        message.set(U16, ENDPOINT_OFFSET, (short) endpointId);
        message.set(U16, HANDLER_OFFSET, (short) handlerId);
        message.set(I32, SOURCE_OFFSET, sourceRank);
    }

    static int endpoint(MemorySegment message) {
        return Short.toUnsignedInt(message.get(U16, ENDPOINT_OFFSET));
    }

    static int handler(MemorySegment message) {
        return Short.toUnsignedInt(message.get(U16, HANDLER_OFFSET));
    }

    static int source(MemorySegment message) {
        return message.get(I32, SOURCE_OFFSET);
    }
}
