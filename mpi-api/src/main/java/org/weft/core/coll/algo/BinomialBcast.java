package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceRequest;
import org.weft.core.coll.BcastAlgorithm;
import org.weft.core.comm.Communicator;

/**
 * Binomial-tree broadcast (MPICH's short-message algorithm): ranks are numbered relative to the root; a rank
 * whose relative number has lowest set bit {@code 2^k} receives from the rank {@code 2^k} below it, then
 * forwards to the ranks {@code 2^j} above it for every {@code j < k}. ⌈log2 p⌉ steps, p − 1 messages, any p.
 * The sends of one rank go out together and are awaited together.
 */
public final class BinomialBcast implements BcastAlgorithm {
    @Override
    public void bcast(Communicator comm, MemorySegment data, int root, int tag) {
        int size = comm.size();
        if (size == 1 || data.byteSize() == 0) {
            return; // every rank agrees on the count, so every rank skips
        }
        int relative = (comm.rank() - root + size) % size;
        int mask = 1;
        while (mask < size) {
            if ((relative & mask) != 0) {
                Transfers.receive(comm, data, absolute(relative - mask, root, size), tag);
                break;
            }
            mask <<= 1;
        }
        // mask is now the lowest set bit of relative (or ≥ size at the root): children sit below it
        DeviceRequest[] sends = new DeviceRequest[Integer.SIZE];
        int children = 0;
        int[] childRanks = new int[Integer.SIZE];
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (relative + mask < size) {
                int child = absolute(relative + mask, root, size);
                childRanks[children] = child;
                sends[children++] = Transfers.startSend(comm, data, child, tag);
            }
        }
        for (int i = 0; i < children; i++) {
            Transfers.finish(comm, sends[i], "send to", childRanks[i]);
        }
    }

    private static int absolute(int relative, int root, int size) {
        return (relative + root) % size;
    }
}
