package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;

import org.weft.core.datatype.TypeDescriptor;

/**
 * The per-call path of {@code MPI_Put}, {@code MPI_Get}, {@code MPI_Win_flush}, {@code MPI_Win_lock} and
 * {@code MPI_Win_unlock} on a window in shared memory ({@link SharedWindow}) for the common case: buffers and
 * predefined types whose items are plain bytes, an open access epoch, a range inside the target's window, a lock
 * without assertions. A put or get is then a few comparisons and one copy between the origin buffer's segment
 * ({@link OriginViews}) and the target's mapping, a flush one full fence, a lock or unlock an atomic update of
 * the target's lock line: no allocation, no map look-up, not the window's monitor (the epoch state read here is
 * changed only by this process's synchronisation calls, which MPI orders before its operations), no volatile write
 * but the lock words'.
 *
 * <p>Each method returns false, having done nothing, when the call is anything else — a message window, a derived
 * type, a count of 0, an argument to reject — and the caller then takes the general path ({@link OneSided},
 * {@link Window}), which checks everything and raises the error with its class. So the fast path never decides an
 * error, and what a program sees does not depend on which path served it.
 */
public final class DirectCalls {
    private DirectCalls() {
    }

    /** {@code MPI_Put} of {@code count} items from {@code buf} to {@code rank} at {@code disp}; false: not served. */
    public static boolean put(Window w, Buffer buf, int count, TypeDescriptor type, int rank, int disp,
                              int targetCount, TypeDescriptor targetType) {
        long offset = targetOffset(w, count, type, rank, disp, targetCount, targetType);
        MemorySegment origin = origin(w, buf, count, type, offset, false);
        if (origin == null) {
            return false;
        }
        w.shared().put(origin, rank, offset, (long) count * type.plainBytes());
        return true;
    }

    /** {@code MPI_Get} of {@code count} items into {@code buf} from {@code rank} at {@code disp}; false: not served. */
    public static boolean get(Window w, Buffer buf, int count, TypeDescriptor type, int rank, int disp,
                              int targetCount, TypeDescriptor targetType) {
        long offset = targetOffset(w, count, type, rank, disp, targetCount, targetType);
        MemorySegment origin = origin(w, buf, count, type, offset, true);
        if (origin == null) {
            return false;
        }
        w.shared().get(origin, rank, offset, (long) count * type.plainBytes());
        return true;
    }

    /**
     * The segment over {@code buf} when it holds the {@code count} items (and, {@code into}, may be written) and
     * the target side passed ({@code offset >= 0}); else {@code null}.
     */
    private static MemorySegment origin(Window w, Buffer buf, int count, TypeDescriptor type, long offset,
                                        boolean into) {
        if (offset < 0 || buf == null) {
            return null;
        }
        MemorySegment origin = w.views().of(buf);
        boolean fits = (long) count * type.plainBytes() <= origin.byteSize() && !(into && origin.isReadOnly());
        return fits ? origin : null;
    }

    /**
     * {@code MPI_Win_flush} of a rank this process holds locked: the copies are done, so what is left is a full
     * fence — this process's stores into the target's memory are ordered before its later loads and stores (a
     * release fence would not order them before a later load: two origins that each put, flush and then get what
     * the other put could both miss it). False: not served.
     */
    public static boolean flush(Window w, int rank) {
        if (w.shared() == null || w.isFreed() || !w.holdsLock(rank)) {
            return false;
        }
        VarHandle.fullFence();
        return true;
    }

    /**
     * {@code MPI_Win_lock} without assertions on a window in shared memory: the atomic update that takes a ticket of
     * the target's lock ({@link SharedWindow#lock}) and this process's note of it, without the window's monitor
     * (two compare-and-sets of its own, a third of a lock + put + unlock's time in {@code WindowCalls}). False: not
     * served.
     */
    public static boolean lock(Window w, int lockType, int rank, int assertion) {
        return assertion == 0 && !w.isFreed() && w.lockDirect(lockType, rank);
    }

    /** {@code MPI_Win_unlock} of a lock {@link #lock} (or the general path, without assertions) took. */
    public static boolean unlock(Window w, int rank) {
        return !w.isFreed() && w.unlockDirect(rank);
    }

    /**
     * {@code MPI_Fetch_and_op} of one {@code int}, {@code long}, {@code float} or {@code double} on its own
     * boundary: the hardware's atomic add, exchange or compare-and-exchange loop on the target's word
     * ({@link WordAtomics}), not the target's accumulate lock. False: not served (another type, an operation not
     * defined on it, a bad argument).
     */
    public static boolean fetchAndOp(Window w, Buffer origin, Buffer result, TypeDescriptor type, int rank, int disp,
                                     String opName) {
        AccumulateOp op = AccumulateOp.ofName(opName);
        WordAtomics.Word word = word(type);
        long offset = wordOffset(w, word, rank, disp);
        if (op == null || offset < 0 || (word.floating() && !op.onDoubles())) {
            return false;
        }
        MemorySegment in = op == AccumulateOp.NO_OP ? null : operand(w, origin, word, false);
        MemorySegment out = operand(w, result, word, true);
        if (out == null || (in == null && op != AccumulateOp.NO_OP)) {
            return false;
        }
        long bits = in == null ? 0 : WordAtomics.read(in, 0, word);
        WordAtomics.write(out, 0, word, WordAtomics.update(w.shared().memory(rank), offset, op, word, bits));
        return true;
    }

    /** {@code MPI_Compare_and_swap} of one word ({@link #fetchAndOp}'s types) on its boundary, by the hardware. */
    public static boolean compareAndSwap(Window w, Buffer origin, Buffer compare, Buffer result, TypeDescriptor type,
                                         int rank, int disp) {
        WordAtomics.Word word = word(type);
        long offset = wordOffset(w, word, rank, disp);
        MemorySegment replacement = offset < 0 ? null : operand(w, origin, word, false);
        MemorySegment expected = replacement == null ? null : operand(w, compare, word, false);
        MemorySegment out = expected == null ? null : operand(w, result, word, true);
        if (out == null) {
            return false;
        }
        WordAtomics.write(out, 0, word, WordAtomics.compareAndSwap(w.shared().memory(rank), offset, word,
                WordAtomics.read(expected, 0, word), WordAtomics.read(replacement, 0, word)));
        return true;
    }

    /** The word {@code type}'s one element is, when it is a predefined type the hardware updates, else null. */
    private static WordAtomics.Word word(TypeDescriptor type) {
        return type == null ? null : WordAtomics.word(type.base().ordinal(), type.plainBytes());
    }

    /**
     * The offset of a {@code word} at {@code disp} in {@code rank}'s window when an atomic may act on it there (a
     * live window in shared memory, an access epoch open, inside the window, on the word's boundary), else -1.
     */
    private static long wordOffset(Window w, WordAtomics.Word word, int rank, int disp) {
        if (w.shared() == null || word == null || disp < 0 || w.isFreed() || !w.accessOpen(rank)) {
            return -1;
        }
        long offset = (long) disp * w.dispUnit(rank);
        boolean inside = offset + word.bytes() <= w.windowBytes(rank);
        return inside && WordAtomics.aligned(w.shared().memory(rank), offset, word) ? offset : -1;
    }

    /** The segment over {@code buf} when it holds a word (and, {@code into}, may be written), else {@code null}. */
    private static MemorySegment operand(Window w, Buffer buf, WordAtomics.Word word, boolean into) {
        if (buf == null) {
            return null;
        }
        MemorySegment memory = w.views().of(buf);
        return memory.byteSize() >= word.bytes() && !(into && memory.isReadOnly()) ? memory : null;
    }

    /**
     * The byte offset in {@code rank}'s window of a put or get that the fast path serves, or -1: a live window in
     * shared memory, plain predefined types on both sides with the same number of bytes (more than 0), a rank with
     * an access epoch open, and a range inside its window.
     */
    private static long targetOffset(Window w, int count, TypeDescriptor type, int rank, int disp, int targetCount,
                                     TypeDescriptor targetType) {
        if (w.shared() == null || type == null || targetType == null || count <= 0 || disp < 0 || w.isFreed()) {
            return -1;
        }
        int itemBytes = type.plainBytes();
        int targetItemBytes = targetType.plainBytes();
        long bytes = (long) count * itemBytes;
        if (itemBytes < 0 || targetItemBytes < 0 || bytes != (long) targetCount * targetItemBytes
                || !w.accessOpen(rank)) {
            return -1;
        }
        long offset = (long) disp * w.dispUnit(rank);
        return offset + bytes <= w.windowBytes(rank) ? offset : -1;
    }
}
