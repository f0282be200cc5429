package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.AllreduceAlgorithm;
import org.weft.core.coll.BcastAlgorithm;
import org.weft.core.coll.CollectiveTags;
import org.weft.core.coll.ReduceAlgorithm;
import org.weft.core.coll.Reduction;
import org.weft.core.comm.Communicator;

/**
 * Allreduce as a reduction to rank 0 followed by a broadcast from rank 0: 2⌈log2 p⌉ steps with the binomial
 * algorithms, correct for any operation (the reduction keeps rank order where it must). Recursive doubling or
 * Rabenseifner's algorithm would halve the steps or the volume; they come with the collectives chapter.
 */
public final class ReduceBcastAllreduce implements AllreduceAlgorithm {
    private final ReduceAlgorithm commutative;
    private final ReduceAlgorithm ordered;
    private final BcastAlgorithm bcast;

    public ReduceBcastAllreduce(ReduceAlgorithm commutative, ReduceAlgorithm ordered, BcastAlgorithm bcast) {
        this.commutative = commutative;
        this.ordered = ordered;
        this.bcast = bcast;
    }

    @Override
    public void allreduce(Communicator comm, MemorySegment send, MemorySegment recv, int count, Reduction op) {
        ReduceAlgorithm reduce = op.commutative() ? commutative : ordered;
        reduce.reduce(comm, send, recv, count, op, 0, CollectiveTags.ALLREDUCE_REDUCE);
        bcast.bcast(comm, recv, 0, CollectiveTags.ALLREDUCE_BCAST);
    }
}
