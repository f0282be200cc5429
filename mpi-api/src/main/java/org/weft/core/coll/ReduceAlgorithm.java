package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.core.comm.Communicator;

/** An algorithm for {@code MPI_Reduce}, built on point-to-point in the communicator's collective context. */
public interface ReduceAlgorithm {
    /**
     * Combines the {@code count} items of every rank's {@code send} into {@code recv} of {@code root}, messages
     * tagged {@code tag}. {@code recv} matters at the root only (elsewhere it may be null) and may be the same
     * memory as {@code send} (in place); {@code send} is never written.
     */
    void reduce(Communicator comm, MemorySegment send, MemorySegment recv, int count, Reduction op, int root,
                int tag);
}
