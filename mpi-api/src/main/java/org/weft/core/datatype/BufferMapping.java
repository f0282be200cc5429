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
 * <p>A buffer is memory, as in Open MPI's bindings: a count of items of any type is checked in bytes against the
 * memory the buffer holds, so an {@code int[]} with {@code MPI.BYTE} counts bytes and a struct of ints works with an
 * {@code int[]}. An array holds any type whose base element is no larger than its own (the bindings' rule: a
 * larger one would make them read past the array); a buffer holds any type. A {@code null} buffer holds 0 items.
 * Items may reach outside a slice made by {@code MPI.slice} as long as they stay inside the memory it was cut from
 * ({@link EnclosingMemory}); they never reach outside the real array or buffer.
 *
 * <p>Byte order: arrays and native-order buffers are sent as they lie in memory, whatever the datatype: an
 * {@code int[]} sent as {@code MPI.BYTE} travels as its ints' bytes in native order, and is received as such (into
 * an {@code int[]} the same ints, into a {@code byte[]} their bytes). Weft's wire is little-endian, which is the
 * memory order on every platform Weft runs on today (x86-64, aarch64); nothing is ever swapped.
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
        packItems(buffer, count, type, staging);
        return staging;
    }

    /**
     * Packs the items again into {@code segment}, which {@link #forSend} returned for the same arguments: a
     * persistent send calls this at each start. Nothing to do for types that need no staging.
     */
    public static void repack(Object buffer, int count, TypeDescriptor type, MemorySegment segment) {
        if (needsStaging(buffer, type)) {
            packItems(buffer, count, type, segment);
        }
    }

    /** Where {@code count} items of {@code type} are received into {@code buffer}. */
    public static MemorySegment forReceive(Object buffer, int count, TypeDescriptor type) {
        long bytes = checkedBytes(buffer, count, type);
        checkWritable(buffer);
        if (!needsStaging(buffer, type)) {
            return view(buffer, bytes);
        }
        return staging(RECENT.get().receiveStaging, buffer, count, type, bytes);
    }

    /**
     * {@code count} items of {@code buffer} that a collective combines into or receives into part of, for a type that
     * needs staging: a packed copy of their current values, as {@link #forSend} gives, which {@link #finishReceive}
     * unpacks back; {@code ERR_BUFFER} for a read-only buffer, as {@link #forReceive} (unpacking into it would fail
     * with a Java exception at the end of the call).
     */
    public static MemorySegment forUpdate(Object buffer, int count, TypeDescriptor type) {
        checkedBytes(buffer, count, type);
        checkWritable(buffer);
        return forSend(buffer, count, type);
    }

    private static void checkWritable(Object buffer) {
        if (buffer instanceof Buffer b && b.isReadOnly()) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "cannot receive into a read-only buffer");
        }
    }

    /**
     * Completes a receive of {@code receivedBytes} into {@code segment}, which {@link #forReceive} returned for
     * the same arguments (or {@link #forSend}, for an in-out buffer): unpacks staging into {@code buffer}, up to
     * the bytes received — the rest of the buffer is left untouched.
     */
    public static void finishReceive(Object buffer, int count, TypeDescriptor type, MemorySegment segment,
                                     long receivedBytes) {
        if (needsStaging(buffer, type)) {
            unpackItems(segment, Math.min(receivedBytes, segment.byteSize()), buffer, count, type);
        }
    }

    /** {@code MPI_Pack}: packs {@code count} items into {@code target}, which is exactly their packed size. */
    public static void pack(Object buffer, int count, TypeDescriptor type, MemorySegment target) {
        long bytes = checkedBytes(buffer, count, type);
        if (needsStaging(buffer, type)) {
            packItems(buffer, count, type, target);
        } else {
            target.copyFrom(view(buffer, bytes));
        }
    }

    /** {@code MPI_Unpack}: unpacks {@code count} items from {@code source}, which is exactly their packed size. */
    public static void unpack(MemorySegment source, Object buffer, int count, TypeDescriptor type) {
        MemorySegment direct = forReceive(buffer, count, type);
        if (needsStaging(buffer, type)) {
            unpackItems(source, source.byteSize(), buffer, count, type);
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
        return buffer instanceof boolean[] || buffer != null && !type.isContiguous();
    }

    /** Packs {@code count} items from {@code buffer} (or from the memory around it) into {@code packed}. */
    private static void packItems(Object buffer, int count, TypeDescriptor type, MemorySegment packed) {
        EnclosingMemory.Placement around = BufferBounds.outside(buffer, count, type);
        if (around == null) {
            Packer.pack(userMemory(buffer), 0, count, type, packed);
        } else {
            Packer.pack(userMemory(around.memory()), around.origin(), count, type, packed);
        }
    }

    /** Unpacks {@code packedBytes} of {@code packed} into {@code count} items of {@code buffer} (or around it). */
    private static void unpackItems(MemorySegment packed, long packedBytes, Object buffer, int count,
                                    TypeDescriptor type) {
        EnclosingMemory.Placement around = BufferBounds.outside(buffer, count, type);
        if (around == null) {
            Packer.unpack(packed, packedBytes, userMemory(buffer), 0, count, type);
        } else {
            Packer.unpack(packed, packedBytes, userMemory(around.memory()), around.origin(), count, type);
        }
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

    /**
     * The segment over the first {@code bytes} of {@code buffer}, remembered per thread (see RecentSegments); an
     * empty one for a {@code null} buffer (which holds 0 items).
     */
    private static MemorySegment view(Object buffer, long bytes) {
        if (buffer == null) {
            return NOTHING;
        }
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

    /** The memory of a {@code null} buffer, which holds nothing. */
    private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

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
        if (bytes > whole.byteSize()) { // items past the end of a slice, inside the memory around it
            EnclosingMemory.Placement around = BufferBounds.holding(buffer, 0, bytes, "a view of " + bytes
                    + " bytes");
            return view(around.memory(), availableBytes(around.memory())).asSlice(around.origin(), bytes);
        }
        return whole.byteSize() == bytes ? whole : whole.asSlice(0, bytes);
    }

    /**
     * Checks the arguments and returns the packed byte length of the message: {@code ERR_COUNT} for a negative
     * count, {@code ERR_TYPE} for a null, freed or uncommitted type, {@code ERR_BUFFER} for a null buffer with a
     * count above 0, an array that cannot hold the type, or items that do not lie in the buffer's memory: the
     * buffer from its index 0, or for a slice the memory around it ({@link BufferBounds}).
     */
    public static long checkedBytes(Object buffer, int count, TypeDescriptor type) {
        if (count < 0) {
            throw MpiErrors.error(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        TypeDescriptor.check(type);
        if (buffer == null) {
            if (count == 0) {
                return 0; // no memory needed: the bindings accept send(null, 0, ...), as C accepts a NULL pointer
            }
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the buffer is null");
        }
        if (!(buffer instanceof Buffer) && buffer.getClass() != type.base().arrayClass()) {
            BufferBounds.checkArrayHolds(buffer, type);
        }
        BufferBounds.outside(buffer, count, type); // ERR_BUFFER unless the items lie in real memory
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
