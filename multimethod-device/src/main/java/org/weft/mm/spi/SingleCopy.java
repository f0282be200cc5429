package org.weft.mm.spi;

import java.lang.foreign.MemorySegment;

/**
 * A link's way of letting the receiver of a large message copy it straight out of the sender's memory, once, by
 * itself (Open MPI's vader single copy, MPICH's Nemesis LMT over cross-memory attach). The protocol above offers
 * the address of the sender's data in its request to send when {@link #offers} accepts the data; the receiver copies
 * it with {@link #copyFrom} into the user's buffer and answers that it did, and the sender's send completes then.
 * Neither side waits for the other while the data moves, and no DATA RSRs go, so the sender need not be running:
 * with more processes than cores, a message costs two hand-offs between them instead of one per fragment.
 *
 * <p>When {@link #copyFrom} cannot copy (the buffer's kind, the kernel's refusal) it says so and the receiver
 * answers with an ordinary clear-to-send: the data then comes as fragments. Thread-safe.
 */
public interface SingleCopy {
    /**
     * Whether the peer may copy {@code data} out of this process where it lies: native memory, which stays where it
     * is until the send completes (a Java heap array moves with the collector).
     */
    boolean offers(MemorySegment data);

    /**
     * Copies {@code into.byteSize()} bytes from {@code address} in the peer into {@code into}; false when it cannot
     * (nothing may then be assumed of {@code into}'s bytes, and the caller has the data sent another way).
     */
    boolean copyFrom(long address, MemorySegment into);

    /**
     * Copies {@code bytes} at {@code address} in the peer into {@code into} at {@code at} (a large collective's
     * reader, which takes part of a block: no slice made per call); false when it cannot, as
     * {@link #copyFrom(long, MemorySegment)}.
     */
    default boolean copyFrom(long address, MemorySegment into, long at, long bytes) {
        return false;
    }

    /**
     * Copies {@code bytes} of {@code from} (native memory) at {@code at} to {@code address} in the peer (a large
     * collective's writer, which copies a share into its reader's buffer while the reader copies the rest); false
     * when it cannot, as {@link #copyFrom(long, MemorySegment)}.
     */
    default boolean copyTo(long address, MemorySegment from, long at, long bytes) {
        return false;
    }

    /** Whether the copies may work (bound, and the kernel has not refused one yet). */
    default boolean works() {
        return true;
    }
}
