package org.weft.core.coll;

import org.weft.core.comm.Communicator;

/** An algorithm for {@code MPI_Barrier}, built on point-to-point in the communicator's collective context. */
public interface BarrierAlgorithm {
    /** Returns when every rank of {@code comm} has entered the barrier. */
    void barrier(Communicator comm);
}
