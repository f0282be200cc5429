package org.weft.core.datatype;

import org.weft.adi.concurrent.CachedThreadLocal;
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
 * {@link MemorySegment} the device reads or writes.
 *
 * <p>Contiguous types need no copy: an array becomes a heap segment over the array; a buffer is addressed from
 * index 0 whatever its position (Open MPI's rule), through {@code MemorySegment.ofBuffer(buffer.duplicate()
 * .clear())}, and its position is left unchanged.
 *
 * <p>Non-contiguous types (and {@code boolean[]}, which has no segment view) go through <em>staging</em>: a send
 * packs the items into a staging segment, which the device sends; a receive lands in a staging segment that
 * {@link #finishReceive} unpacks into the user's buffer. Each thread keeps the staging of its last few
 * (buffer, type, count), one set for sends and one for receives, so steady-state traffic makes no garbage.
 * Sharing staging this way is safe under MPI's rules: two pending sends from the same buffer, type and count
 * pack the same bytes; two pending receives into the same buffer would be erroneous anyway. Persistent sends
 * call {@link #repack} at each start, since the user may have changed the data since the last.
 *
 * <p>Byte order: arrays and native-order buffers are sent as they lie in memory; Weft's wire is
 * little-endian, which is the memory order on every platform Weft runs on today (x86-64, aarch64).
 */
public final class BufferMapping {
    private BufferMapping() {
    }

    /** The packed bytes of {@code count} items of {@code type} from {@code buffer}, for a send. */
    public static MemorySegment forSend(Object buffer, int count, TypeDescriptor type) {
        long bytes = checkedBytes(buffer, count, type);
        if (!needsStaging(buffer, type)) {
            return view(buffer, bytes);
        }
        MemorySegment staging = staging(RECENT.get().sendStaging, buffer, count, type, bytes);
        Packer.pack(userMemory(buffer), count, type, staging);
        return staging;
    }

    /**
     * Packs the items again into {@code segment}, which {@link #forSend} returned for the same arguments: a
     * persistent send calls this at each start. Nothing to do for types that need no staging.
     */
    public static void repack(Object buffer, int count, TypeDescriptor type, MemorySegment segment) {
        if (needsStaging(buffer, type)) {
            Packer.pack(userMemory(buffer), count, type, segment);
        }
    }

    /** Where {@code count} items of {@code type} are received into {@code buffer}. */
    public static MemorySegment forReceive(Object buffer, int count, TypeDescriptor type) {
        long bytes = checkedBytes(buffer, count, type);
        if (buffer instanceof Buffer b && b.isReadOnly()) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "cannot receive into a read-only buffer");
        }
        if (!needsStaging(buffer, type)) {
            return view(buffer, bytes);
        }
        return staging(RECENT.get().receiveStaging, buffer, count, type, bytes);
    }

    /**
     * Completes a receive of {@code receivedBytes} into {@code segment}, which {@link #forReceive} returned for
     * the same arguments (or {@link #forSend}, for an in-out buffer): unpacks staging into {@code buffer}, up to
     * the bytes received — the rest of the buffer is left untouched.
     */
    public static void finishReceive(Object buffer, int count, TypeDescriptor type, MemorySegment segment,
                                     long receivedBytes) {
        if (needsStaging(buffer, type)) {
            Packer.unpack(segment, Math.min(receivedBytes, segment.byteSize()), userMemory(buffer), count, type);
        }
    }

    /** {@code MPI_Pack}: packs {@code count} items into {@code target}, which is exactly their packed size. */
    public static void pack(Object buffer, int count, TypeDescriptor type, MemorySegment target) {
        long bytes = checkedBytes(buffer, count, type);
        if (needsStaging(buffer, type)) {
            Packer.pack(userMemory(buffer), count, type, target);
        } else {
            target.copyFrom(view(buffer, bytes));
        }
    }

    /** {@code MPI_Unpack}: unpacks {@code count} items from {@code source}, which is exactly their packed size. */
    public static void unpack(MemorySegment source, Object buffer, int count, TypeDescriptor type) {
        MemorySegment direct = forReceive(buffer, count, type);
        if (needsStaging(buffer, type)) {
            Packer.unpack(source, source.byteSize(), userMemory(buffer), count, type);
        } else {
            direct.copyFrom(source);
        }
    }

    /** True when a receive into {@code buffer} needs {@link #finishReceive} after it completed. */
    public static boolean needsFinish(Object buffer, TypeDescriptor type) {
        return needsStaging(buffer, type);
    }

    /**
     * What a nonblocking or persistent receive must do on completion: a {@link StagedReceive} for
     * {@code segment} (from {@link #forReceive}), or {@code null} when the data lands in place.
     */
    public static StagedReceive stagedReceive(Object buffer, int count, TypeDescriptor type, MemorySegment segment) {
        return needsStaging(buffer, type) ? new StagedReceive(buffer, count, type, segment) : null;
    }

    /** Whether {@code buffer}'s items of {@code type} go through a packed copy rather than a view of it. */
    public static boolean needsStaging(Object buffer, TypeDescriptor type) {
        return buffer instanceof boolean[] || !type.isContiguous();
    }

    /** This thread's remembered staging for (buffer, type, count), made (and remembered) if missing. */
    private static MemorySegment staging(RecentSegments recent, Object buffer, int count, TypeDescriptor type,
                                         long bytes) {
        MemorySegment staging = recent.find(buffer, type, count);
        if (staging == null) {
            // over a long[], so that readers of the staged data (reductions) may use aligned accesses
            staging = MemorySegment.ofArray(new long[Math.toIntExact((bytes + 7) / 8)]).asSlice(0, bytes);
            recent.remember(buffer, type, count, staging);
        }
        return staging;
    }

    /** The user's memory as {@link Packer} addresses it: the whole buffer as a segment, or a boolean[]. */
    private static Object userMemory(Object buffer) {
        return buffer instanceof boolean[] ? buffer : view(buffer, availableBytes(buffer));
    }

    /** The segment over the first {@code bytes} of {@code buffer}, remembered per thread (see RecentSegments). */
    private static MemorySegment view(Object buffer, long bytes) {
        RecentSegments recent = RECENT.get().views;
        MemorySegment view = recent.find(buffer, null, bytes);
        if (view == null) {
            view = newView(buffer, bytes);
            recent.remember(buffer, null, bytes, view);
        }
        return view;
    }

    /** A thread's remembered views and staging (the one static of this package: a cache). */
    private static final class Recent {
        final RecentSegments views = new RecentSegments();
        final RecentSegments sendStaging = new RecentSegments();
        final RecentSegments receiveStaging = new RecentSegments();
    }

    private static final CachedThreadLocal<Recent> RECENT = new CachedThreadLocal<>(Recent::new);

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
     * Checks the arguments and returns the packed byte length of the message: {@code ERR_COUNT} for a negative
     * count, {@code ERR_TYPE} for a null, freed or uncommitted type, {@code ERR_BUFFER} for a null buffer, an
     * array of the wrong element type, or a buffer that does not hold {@code count} items (from its index 0, so
     * a type whose data lies below its start does not fit either).
     */
    public static long checkedBytes(Object buffer, int count, TypeDescriptor type) {
        if (count < 0) {
            throw MpiErrors.error(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        TypeDescriptor.check(type);
        if (buffer == null) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the buffer is null");
        }
        if (!(buffer instanceof Buffer) && buffer.getClass() != type.base().arrayClass()) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "a " + buffer.getClass().getSimpleName()
                    + " cannot hold " + type + " (use a " + type.base().arrayClass().getSimpleName()
                    + " or a direct buffer)");
        }
        long available = availableBytes(buffer);
        if (count > 0) {
            long lastStart = (count - 1) * type.extent();
            long low = Math.min(0, lastStart) + type.trueLb();
            long high = Math.max(0, lastStart) + type.trueLb() + type.trueExtent();
            if (type.byteSize() > 0 && (low < 0 || high > available)) {
                throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the buffer holds " + available + " bytes but "
                        + count + " x " + type + " need bytes " + low + " to " + high);
            }
        }
        return (long) count * type.byteSize();
    }

    /** Bytes {@code buffer} holds (the whole array, or the whole buffer's capacity). */
    public static long availableBytes(Object buffer) {
        if (buffer instanceof Buffer b) {
            return (long) b.capacity() * elementBytes(b);
        }
        return (long) java.lang.reflect.Array.getLength(buffer) * BaseType.of(buffer.getClass()).bytes();
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
