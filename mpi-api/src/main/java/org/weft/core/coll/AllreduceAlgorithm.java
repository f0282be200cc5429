package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.core.comm.Communicator;

/** An algorithm for {@code MPI_Allreduce}, built on point-to-point in the communicator's collective context. */
public interface AllreduceAlgorithm {
    /**
     * Combines the {@code count} items of every rank's {@code send} into {@code recv} of every rank.
     * {@code recv} may be the same memory as {@code send} (in place); {@code send} is never written.
     */
    void allreduce(Communicator comm, MemorySegment send, MemorySegment recv, int count, Reduction op);
}
