package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The layout of a one-sided request, as an origin sends it to a window's target service (little-endian):
 *
 * <pre>
 *   0                   4                   8                                      16
 *   +-------------------+-------------------+---------------------------------------+
 *   | kind              | reply tag (0: no) | target byte offset                    |
 *   +-------------------+-------------------+---------------------------------------+
 *  16 | target count    | op or lock type   | base type (-1: none)| runs             |
 *   +-------------------+-------------------+---------------------------------------+
 *  32 | target extent (bytes)                 | data bytes          | body inline (1) |
 *   +---------------------------------------+---------------------------------------+
 *  48 | body: runs x (long offset, long length, int element bytes), then the data      |
 * </pre>
 *
 * The runs are the target datatype's typemap; the data is packed in type order. A body that does not fit in
 * {@link #REQUEST_LIMIT} bytes with the header follows in a second message with {@link #BODY_TAG}.
 */
final class RmaFrame {
    static final int PUT = 1;
    static final int GET = 2;
    static final int ACCUMULATE = 3;
    static final int GET_ACCUMULATE = 4;
    static final int COMPARE_AND_SWAP = 5;
    static final int LOCK = 6;
    static final int UNLOCK = 7;
    static final int FLUSH = 8;

    /** Tag of requests (what the target service receives), of bodies that follow them; replies use higher tags. */
    static final int REQUEST_TAG = 0;
    static final int BODY_TAG = 1;
    static final int FIRST_REPLY_TAG = 2;
    /** Notices of post/start/complete/wait, above every reply tag. */
    static final int POST_TAG = (1 << 30) + 1;
    static final int COMPLETE_TAG = (1 << 30) + 2;

    static final int HEADER = 48;
    static final int RUN = 20;
    /** Largest request message: the service's receive buffer. */
    static final int REQUEST_LIMIT = 16 * 1024;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private RmaFrame() {
    }

    static int kind(MemorySegment f) {
        return f.get(INT, 0);
    }

    static int replyTag(MemorySegment f) {
        return f.get(INT, 4);
    }

    static long targetOffset(MemorySegment f) {
        return f.get(LONG, 8);
    }

    static int targetCount(MemorySegment f) {
        return f.get(INT, 16);
    }

    static int opOrLock(MemorySegment f) {
        return f.get(INT, 20);
    }

    static int baseType(MemorySegment f) {
        return f.get(INT, 24);
    }

    static int runs(MemorySegment f) {
        return f.get(INT, 28);
    }

    static long extent(MemorySegment f) {
        return f.get(LONG, 32);
    }

    static int dataBytes(MemorySegment f) {
        return f.get(INT, 40);
    }

    static boolean bodyInline(MemorySegment f) {
        return f.get(INT, 44) != 0;
    }

    /** Bytes of the body: runs then data. */
    static long bodyBytes(MemorySegment f) {
        return (long) runs(f) * RUN + dataBytes(f);
    }

    /** Writes a header with no target type (lock, unlock, flush). */
    static void header(MemorySegment f, int kind, int replyTag, int lockType) {
        header(f, kind, replyTag, 0, 0, lockType, -1, 0, 0, 0, true);
    }

    static void header(MemorySegment f, int kind, int replyTag, long targetOffset, int targetCount, int opOrLock,
                       int baseType, int runs, long extent, int dataBytes, boolean inline) {
        f.set(INT, 0, kind);
        f.set(INT, 4, replyTag);
        f.set(LONG, 8, targetOffset);
        f.set(INT, 16, targetCount);
        f.set(INT, 20, opOrLock);
        f.set(INT, 24, baseType);
        f.set(INT, 28, runs);
        f.set(LONG, 32, extent);
        f.set(INT, 40, dataBytes);
        f.set(INT, 44, inline ? 1 : 0);
    }

    static void run(MemorySegment body, int i, long offset, long length, int elementBytes) {
        long at = (long) i * RUN;
        body.set(LONG, at, offset);
        body.set(LONG, at + 8, length);
        body.set(INT, at + 16, elementBytes);
    }

    static long runOffset(MemorySegment body, int i) {
        return body.get(LONG, (long) i * RUN);
    }

    static long runLength(MemorySegment body, int i) {
        return body.get(LONG, (long) i * RUN + 8);
    }

    static int runElementBytes(MemorySegment body, int i) {
        return body.get(INT, (long) i * RUN + 16);
    }
}
