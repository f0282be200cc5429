package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;

/**
 * Linear scatter (and scatterv): the root sends every member its block at once, straight from its place in the
 * send buffer; the others receive. One step, p − 1 messages from the root, no copies, any block sizes.
 */
public final class LinearScatter {
    private LinearScatter() {
    }

    /**
     * Scatters {@code blocks[i]} of the root to {@code mine} of member i ({@code blocks} unused elsewhere;
     * {@code mine == null} at the root: in place, its block stays where it is). {@code fill} says how much of
     * {@code mine} a member's block may fill; the root's own block, which may be shorter, fills what it covers.
     */
    public static void append(Schedule s, Members m, MemorySegment[] blocks, MemorySegment mine, int root,
                              Fill fill) {
        if (!m.includesMe()) {
            return;
        }
        if (m.me() != root) {
            s.receive(mine, m.world(root), fill).endRound();
            return;
        }
        for (int i = 0; i < m.size(); i++) {
            if (i != root) {
                s.send(blocks[i], m.world(i));
            } else if (mine != null) {
                MemorySegment own = blocks[i];
                s.local(() -> MemorySegment.copy(own, 0, mine, 0, own.byteSize()));
            }
        }
        s.endRound();
    }
}
