package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Binomial-tree broadcast (MPICH's short-message algorithm): members are numbered relative to the root; a member
 * whose relative number has lowest set bit {@code 2^k} receives from the member {@code 2^k} below it, then
 * forwards to the members {@code 2^j} above it for every {@code j < k}, all at once. ⌈log2 p⌉ steps, p − 1
 * messages, any p.
 */
public final class BinomialBcast {
    private BinomialBcast() {
    }

    /** Copies {@code data} of member {@code root} into {@code data} of every member. */
    public static void append(Schedule s, Members m, MemorySegment data, int root) {
        int size = m.size();
        if (!m.includesMe() || size == 1) {
            return;
        }
        int relative = (m.me() - root + size) % size;
        int mask = 1;
        while (mask < size) {
            if ((relative & mask) != 0) {
                s.receive(data, m.world((relative - mask + root) % size)).endRound();
                break;
            }
            mask <<= 1;
        }
        // mask is now the lowest set bit of relative (or ≥ size at the root): children sit below it
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (relative + mask < size) {
                s.send(data, m.world((relative + mask + root) % size));
            }
        }
        s.endRound();
    }
}
