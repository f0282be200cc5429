package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * The memory a process attached to a dynamic window ({@code MPI_Win_attach}), and where each piece lies in the
 * window: Java has no addresses to give (and the bindings' displacements are {@code int}s), so a dynamic window's
 * displacements count bytes in an <em>attach space</em> of each process, where each attached buffer starts where
 * the ones attached before it at that process ended, rounded up to 8 bytes; space is never reused, even after a
 * detach. A process that attaches one buffer exposes it at displacement 0. Attach and detach run on the program's
 * threads, look-ups on the window's service: the pieces are an immutable array swapped whole.
 */
final class AttachedMemory {
    /** Where attached memory may lie: displacements are {@code int}s. */
    static final long SPACE = Integer.MAX_VALUE;

    /** One attached buffer: its bytes and where they start in the attach space. */
    record Piece(long base, MemorySegment memory) {
        boolean holds(long offset) {
            return offset >= base && offset < base + memory.byteSize();
        }
    }

    private volatile Piece[] pieces = new Piece[0];
    private long next;

    /** Attaches {@code memory}; returns its displacement. {@code ERR_RMA_ATTACH} when it overlaps an attached one. */
    synchronized long attach(MemorySegment memory) {
        for (Piece piece : pieces) {
            if (overlap(piece.memory(), memory)) {
                throw MpiErrors.error(ErrorClass.ERR_RMA_ATTACH, "this memory overlaps memory attached already");
            }
        }
        long base = next;
        long end = base + memory.byteSize();
        if (end > SPACE) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_ATTACH, "a dynamic window's process attaches at most "
                    + SPACE + " bytes in its life (displacements are ints)");
        }
        next = (end + 7) & ~7L;
        Piece[] grown = Arrays.copyOf(pieces, pieces.length + 1);
        grown[pieces.length] = new Piece(base, memory);
        pieces = grown;
        return base;
    }

    /** Detaches the memory attached from {@code memory}'s first byte; {@code ERR_RMA_ATTACH} when none was. */
    synchronized void detach(MemorySegment memory) {
        for (int i = 0; i < pieces.length; i++) {
            if (pieces[i].memory().address() == memory.address() && memory.isNative()) {
                Piece[] shrunk = new Piece[pieces.length - 1];
                System.arraycopy(pieces, 0, shrunk, 0, i);
                System.arraycopy(pieces, i + 1, shrunk, i, pieces.length - i - 1);
                pieces = shrunk;
                return;
            }
        }
        throw MpiErrors.error(ErrorClass.ERR_RMA_ATTACH, "no memory attached to this window starts there");
    }

    /** The displacement of the attached memory starting at {@code memory}'s first byte, or -1. */
    long displacementOf(MemorySegment memory) {
        for (Piece piece : pieces) {
            if (piece.memory().address() == memory.address()) {
                return piece.base();
            }
        }
        return -1;
    }

    /** The piece holding byte {@code offset} of the attach space, or {@code null} (nothing attached there). */
    Piece find(long offset) {
        for (Piece piece : pieces) {
            if (piece.holds(offset)) {
                return piece;
            }
        }
        return null;
    }

    private static boolean overlap(MemorySegment a, MemorySegment b) {
        return a.address() < b.address() + b.byteSize() && b.address() < a.address() + a.byteSize();
    }
}
