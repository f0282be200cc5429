package org.weft.core.io;

/**
 * The memory of a closed file's two-phase accesses, kept for the next file this rank accesses collectively: at most
 * one {@link CollectiveBuffer} a rank, freed at {@code MPI_Finalize}. A program that writes one file after another
 * (checkpoints) then maps its windows once: on this machine's VM the first touch of fresh pages cost a collective
 * write of 256 MiB about 45 ms of its ~150 (docs/performance.md), as a C program's malloc keeps freed memory for
 * the next one.
 */
public final class SpareCollectiveBuffer {
    private CollectiveBuffer spare;

    /** The spare buffer, or a new one whose writer thread is named {@code writerName}. */
    synchronized CollectiveBuffer take(String writerName) {
        CollectiveBuffer taken = spare;
        spare = null;
        return taken != null ? taken : new CollectiveBuffer(writerName);
    }

    /** Keeps {@code buffer} (no write of it running) for the next file, or frees it when one is kept already. */
    synchronized void give(CollectiveBuffer buffer) {
        if (spare == null) {
            spare = buffer;
        } else {
            buffer.close();
        }
    }

    /** Frees the spare buffer, if any ({@code MPI_Finalize}). */
    public synchronized void close() {
        if (spare != null) {
            spare.close();
            spare = null;
        }
    }
}
