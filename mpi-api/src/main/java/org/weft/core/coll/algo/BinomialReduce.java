package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.ReduceAlgorithm;
import org.weft.core.coll.Reduction;
import org.weft.core.comm.Communicator;

/**
 * Binomial-tree reduction for commutative operations (MPICH's short-message algorithm): the broadcast tree run
 * backwards. Ranks are numbered relative to the root; at step k a rank whose bit k is set sends its partial
 * result to the rank {@code 2^k} below and stops; the others receive from the rank {@code 2^k} above (if any)
 * and combine. The combining order follows the tree, not the ranks, hence commutative operations only.
 *
 * <p>Leaves send their send buffer as it is; inner ranks combine into a private copy, the root into its
 * receive buffer.
 */
public final class BinomialReduce implements ReduceAlgorithm {
    @Override
    public void reduce(Communicator comm, MemorySegment send, MemorySegment recv, int count, Reduction op,
                       int root, int tag) {
        int size = comm.size();
        int rank = comm.rank();
        long bytes = send.byteSize();
        boolean isRoot = rank == root;
        if (isRoot) {
            MemorySegment.copy(send, 0, recv, 0, bytes); // a no-op in place
        }
        if (size == 1 || bytes == 0) {
            return;
        }
        int relative = (rank - root + size) % size;
        MemorySegment partial = isRoot ? recv : send;
        MemorySegment incoming = null;
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((relative & mask) != 0) {
                Transfers.send(comm, partial, (relative - mask + root) % size, tag);
                return;
            }
            int child = relative | mask;
            if (child < size) {
                if (incoming == null) {
                    incoming = Transfers.scratch(bytes);
                    if (!isRoot) {
                        partial = Transfers.scratch(bytes).copyFrom(send);
                    }
                }
                Transfers.receive(comm, incoming, (child + root) % size, tag);
                op.combiner().combine(incoming, partial, count);
            }
        }
    }
}
