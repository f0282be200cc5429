package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;

/**
 * Ring allgather (and allgatherv; MPICH's long-message algorithm): in step k each member passes the block it
 * received in step k − 1 (its own at first) to its right neighbour and receives the next one from its left.
 * p − 1 steps, each member sends and receives (p − 1)/p of the result once: bandwidth-optimal, any block sizes.
 * A block passes on as it came, so a member's data shorter than its block reaches every member as it was sent.
 */
public final class RingAllgather {
    private RingAllgather() {
    }

    /**
     * Gathers {@code mine} of every member into {@code blocks[i]} everywhere ({@code mine == null}: in place);
     * {@code fill} says how much of its block a member's data may fill ({@code mine} fills its own block's start).
     */
    public static void append(Schedule s, Members m, MemorySegment mine, MemorySegment[] blocks, Fill fill) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        MemorySegment own = blocks[me];
        if (mine != null) {
            s.local(() -> MemorySegment.copy(mine, 0, own, 0, mine.byteSize()));
        }
        int right = m.world((me + 1) % size);
        int left = m.world((me - 1 + size) % size);
        for (int step = 0; step < size - 1; step++) {
            if (step == 0) {
                s.send(mine == null || mine.byteSize() == own.byteSize() ? own : own.asSlice(0, mine.byteSize()),
                        right);
            } else {
                s.forward(blocks[(me - step + size) % size], right);
            }
            s.receive(blocks[(me - step - 1 + 2 * size) % size], left, fill);
            s.endRound();
        }
        s.endRound();
    }
}
