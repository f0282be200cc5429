package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;

/**
 * Linear gather (and gatherv): the root receives every member's block at once, straight into its place in the
 * receive buffer; the others send. One step, p − 1 messages into the root, no copies, any block sizes.
 *
 * <p>Blocks that share bytes (overlapping displacements: erroneous, but common in course material) are instead
 * written one at a time in rank order, so the last rank's block wins where they overlap, as in Open MPI's linear
 * gatherv; that takes p − 1 steps.
 */
public final class LinearGather {
    private LinearGather() {
    }

    /**
     * Gathers {@code mine} of every member into {@code blocks[i]} of the root ({@code blocks} unused elsewhere;
     * {@code mine == null} at the root: in place, its block is already there). {@code fill} says how much of its
     * block a member's data may fill at the root; the root's own block takes {@code mine}, which may be shorter.
     */
    public static void append(Schedule s, Members m, MemorySegment mine, MemorySegment[] blocks, int root,
                              Fill fill) {
        if (!m.includesMe()) {
            return;
        }
        if (m.me() != root) {
            s.send(mine, m.world(root)).endRound();
            return;
        }
        boolean inRankOrder = Blocks.overlap(blocks);
        for (int i = 0; i < m.size(); i++) {
            if (i != root) {
                s.receive(blocks[i], m.world(i), fill);
            } else if (mine != null) {
                MemorySegment own = blocks[i];
                s.local(() -> MemorySegment.copy(mine, 0, own, 0, mine.byteSize()));
            }
            if (inRankOrder) {
                s.endRound();
            }
        }
        s.endRound();
    }
}
