package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Ring allgather (and allgatherv; MPICH's long-message algorithm): in step k each member passes the block it
 * received in step k − 1 (its own at first) to its right neighbour and receives the next one from its left.
 * p − 1 steps, each member sends and receives (p − 1)/p of the result once: bandwidth-optimal, any block sizes.
 */
public final class RingAllgather {
    private RingAllgather() {
    }

    /** Gathers {@code mine} of every member into {@code blocks[i]} everywhere ({@code mine == null}: in place). */
    public static void append(Schedule s, Members m, MemorySegment mine, MemorySegment[] blocks) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        if (mine != null) {
            s.local(() -> MemorySegment.copy(mine, 0, blocks[me], 0, blocks[me].byteSize()));
        }
        int right = m.world((me + 1) % size);
        int left = m.world((me - 1 + size) % size);
        for (int step = 0; step < size - 1; step++) {
            s.send(blocks[(me - step + size) % size], right);
            s.receive(blocks[(me - step - 1 + 2 * size) % size], left);
            s.endRound();
        }
        s.endRound();
    }
}
