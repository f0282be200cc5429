package org.weft.mm.module.nativempi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Native buffers for bulk transfers of Java heap arrays, whose addresses libmpi cannot keep (the collector moves
 * arrays): the sender's data is copied into one before its {@code MPI_Isend}, the receiver's arrives in one and is
 * copied out. Buffers come in power-of-two sizes and are kept for the next transfer up to {@link #KEPT_BYTES} in all
 * (an allocation zeroes its memory, as slow as the copy it serves); beyond that they are left to the collector.
 * Thread-safe.
 */
final class StagingBuffers {
    /** How much memory idle buffers may hold. */
    static final long KEPT_BYTES = 64L << 20;
    private static final int SIZE_CLASSES = 32;

    private final Arena arena = Arena.ofShared();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] idle = new ArrayDeque[SIZE_CLASSES];
    private long keptBytes;
    private long allocatedBytes;

    /** A buffer of at least {@code bytes} (at most 1 GiB); give it back with {@link #release}. */
    synchronized MemorySegment take(long bytes) {
        int sizeClass = sizeClassOf(bytes);
        ArrayDeque<MemorySegment> free = idle[sizeClass];
        MemorySegment buffer = free == null ? null : free.poll();
        if (buffer != null) {
            keptBytes -= buffer.byteSize();
            return buffer;
        }
        long size = 1L << sizeClass;
        if (allocatedBytes + size <= KEPT_BYTES) {
            allocatedBytes += size;
            return arena.allocate(size, 64);
        }
        return Arena.ofAuto().allocate(size, 64); // freed by the collector once dropped
    }

    /** Takes back a buffer from {@link #take}: kept for the next transfer while within the limit. */
    synchronized void release(MemorySegment buffer) {
        if (keptBytes + buffer.byteSize() > KEPT_BYTES) {
            return;
        }
        int sizeClass = sizeClassOf(buffer.byteSize());
        if (idle[sizeClass] == null) {
            idle[sizeClass] = new ArrayDeque<>();
        }
        idle[sizeClass].add(buffer);
        keptBytes += buffer.byteSize();
    }

    /** Frees the kept buffers; only when no transfer uses one (after MPI_Finalize). */
    void close() {
        arena.close();
    }

    private static int sizeClassOf(long bytes) {
        return Math.max(12, 64 - Long.numberOfLeadingZeros(Math.max(1, bytes) - 1));
    }
}
