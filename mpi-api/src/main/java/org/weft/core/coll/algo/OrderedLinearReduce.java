package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.ReduceAlgorithm;
import org.weft.core.coll.Reduction;
import org.weft.core.comm.Communicator;

/**
 * Linear reduction in rank order, for operations that are not commutative: every rank sends to the root, which
 * folds the contributions from the highest rank down, {@code acc = v[i] op acc}, so that the result is
 * {@code v[0] op v[1] op ... op v[p-1]} as MPI requires. p − 1 messages all into the root, one at a time: a
 * fallback for user operations, not a fast path.
 */
public final class OrderedLinearReduce implements ReduceAlgorithm {
    @Override
    public void reduce(Communicator comm, MemorySegment send, MemorySegment recv, int count, Reduction op,
                       int root, int tag) {
        int size = comm.size();
        int rank = comm.rank();
        long bytes = send.byteSize();
        if (rank != root) {
            if (bytes > 0) {
                Transfers.send(comm, send, root, tag);
            }
            return;
        }
        if (size == 1 || bytes == 0) {
            MemorySegment.copy(send, 0, recv, 0, bytes);
            return;
        }
        // recv may be send itself (in place) and is overwritten first: keep our own contribution apart
        MemorySegment own = Transfers.scratch(bytes).copyFrom(send);
        MemorySegment incoming = Transfers.scratch(bytes);
        for (int from = size - 1; from >= 0; from--) {
            MemorySegment contribution = own;
            if (from != rank) {
                Transfers.receive(comm, incoming, from, tag);
                contribution = incoming;
            }
            if (from == size - 1) {
                MemorySegment.copy(contribution, 0, recv, 0, bytes);
            } else {
                op.combiner().combine(contribution, recv, count);
            }
        }
    }
}
