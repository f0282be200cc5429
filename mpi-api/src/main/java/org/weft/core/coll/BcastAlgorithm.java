package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.core.comm.Communicator;

/** An algorithm for {@code MPI_Bcast}, built on point-to-point in the communicator's collective context. */
public interface BcastAlgorithm {
    /** Copies {@code data} of {@code root} into {@code data} of every other rank, messages tagged {@code tag}. */
    void bcast(Communicator comm, MemorySegment data, int root, int tag);
}
