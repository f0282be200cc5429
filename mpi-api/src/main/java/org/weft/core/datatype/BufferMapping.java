package org.weft.core.datatype;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * Maps a user buffer (a Java primitive array or an NIO buffer), a count and a datatype to the contiguous
 * {@link MemorySegment} the device reads or writes. No copy for contiguous types: an array becomes a heap
 * segment over the array; a buffer is addressed from index 0 whatever its position (Open MPI's rule), through
 * {@code MemorySegment.ofBuffer(buffer.duplicate().clear())}, and its position is left unchanged.
 *
 * <p>The one exception is {@code boolean[]}, which has no segment view: a send copies it to bytes, a receive
 * lands in a staging segment that {@link #finishReceive} copies back.
 *
 * <p>Byte order: arrays and native-order buffers are sent as they lie in memory; Weft's wire is
 * little-endian, which is the memory order on every platform Weft runs on today (x86-64, aarch64).
 */
public final class BufferMapping {
    private BufferMapping() {
    }

    /** The bytes of {@code count} items of {@code type} from {@code buffer}, for a send. */
    public static MemorySegment forSend(Object buffer, int count, TypeDescriptor type) {
        long bytes = checkedBytes(buffer, count, type);
        if (buffer instanceof boolean[] booleans) {
            byte[] copy = new byte[(int) bytes];
            for (int i = 0; i < copy.length; i++) {
                copy[i] = booleans[i] ? (byte) 1 : (byte) 0;
            }
            return MemorySegment.ofArray(copy);
        }
        return view(buffer, bytes);
    }

    /** Where {@code count} items of {@code type} are received into {@code buffer}. */
    public static MemorySegment forReceive(Object buffer, int count, TypeDescriptor type) {
        long bytes = checkedBytes(buffer, count, type);
        if (buffer instanceof boolean[]) {
            return MemorySegment.ofArray(new byte[(int) bytes]);
        }
        if (buffer instanceof Buffer b && b.isReadOnly()) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "cannot receive into a read-only buffer");
        }
        return view(buffer, bytes);
    }

    /** Completes a receive of {@code receivedBytes} into {@code buffer}: copies back a staged boolean[]. */
    public static void finishReceive(Object buffer, MemorySegment segment, long receivedBytes) {
        if (buffer instanceof boolean[] booleans) {
            for (int i = 0; i < receivedBytes; i++) {
                booleans[i] = segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != 0;
            }
        }
    }

    /** True for buffers that need {@link #finishReceive} after the receive completed. */
    public static boolean needsFinish(Object buffer) {
        return buffer instanceof boolean[];
    }

    /**
     * The segment over the first {@code bytes} of {@code buffer}. Programs send and receive from the same few
     * buffers over and over, and a view never changes, so each thread remembers its last few views instead of
     * making two or three small objects per message (garbage whose collections showed up as latency spikes).
     */
    private static MemorySegment view(Object buffer, long bytes) {
        RecentViews recent = RECENT_VIEWS.get();
        MemorySegment view = recent.find(buffer, bytes);
        if (view == null) {
            view = newView(buffer, bytes);
            recent.remember(buffer, bytes, view);
        }
        return view;
    }

    /**
     * The views a thread made last, by buffer identity and length. A cache with no meaning of its own (the one
     * static of this package); it keeps at most {@link #SIZE} buffers of each thread reachable until replaced.
     */
    private static final class RecentViews {
        static final int SIZE = 4;
        private final Object[] buffers = new Object[SIZE];
        private final long[] lengths = new long[SIZE];
        private final MemorySegment[] views = new MemorySegment[SIZE];
        private int next;

        MemorySegment find(Object buffer, long bytes) {
            for (int i = 0; i < SIZE; i++) {
                if (buffers[i] == buffer && lengths[i] == bytes) {
                    return views[i];
                }
            }
            return null;
        }

        void remember(Object buffer, long bytes, MemorySegment view) {
            buffers[next] = buffer;
            lengths[next] = bytes;
            views[next] = view;
            next = (next + 1) % SIZE;
        }
    }

    private static final ThreadLocal<RecentViews> RECENT_VIEWS = ThreadLocal.withInitial(RecentViews::new);

    /** A heap segment over a primitive array, or {@code null} for anything else (including {@code boolean[]}). */
    public static MemorySegment arraySegment(Object array) {
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> null;
        };
    }

    private static MemorySegment newView(Object buffer, long bytes) {
        MemorySegment whole = buffer instanceof Buffer b ? MemorySegment.ofBuffer(b.duplicate().clear())
                : arraySegment(buffer);
        if (whole == null) {
            throw new IllegalStateException("unchecked buffer " + buffer.getClass());
        }
        return whole.byteSize() == bytes ? whole : whole.asSlice(0, bytes);
    }

    /**
     * Checks the arguments and returns the byte length of the message: {@code ERR_COUNT} for a negative count,
     * {@code ERR_TYPE} for a null or freed type, {@code ERR_BUFFER} for a null buffer, an array of the wrong
     * element type, or a buffer shorter than {@code count} items.
     */
    public static long checkedBytes(Object buffer, int count, TypeDescriptor type) {
        if (count < 0) {
            throw MpiErrors.error(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        TypeDescriptor.check(type);
        if (buffer == null) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the buffer is null");
        }
        long bytes = (long) count * type.byteSize();
        long available;
        if (buffer instanceof Buffer b) {
            available = (long) b.capacity() * elementBytes(b);
        } else if (buffer.getClass() == type.base().arrayClass()) {
            available = (long) java.lang.reflect.Array.getLength(buffer) * type.base().bytes();
        } else {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "a " + buffer.getClass().getSimpleName()
                    + " cannot hold " + type.name() + " (use a " + type.base().arrayClass().getSimpleName()
                    + " or a direct buffer)");
        }
        if (bytes > available) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the buffer holds " + available + " bytes but " + count
                    + " x " + type.name() + " need " + bytes);
        }
        return bytes;
    }

    /** Bytes per element of an NIO buffer. */
    public static int elementBytes(Buffer buffer) {
        return switch (buffer) {
            case ByteBuffer b -> 1;
            case CharBuffer b -> 2;
            case ShortBuffer b -> 2;
            case IntBuffer b -> 4;
            case FloatBuffer b -> 4;
            case LongBuffer b -> 8;
            case DoubleBuffer b -> 8;
            default -> throw MpiErrors.error(ErrorClass.ERR_BUFFER, "unsupported buffer " + buffer.getClass());
        };
    }
}
