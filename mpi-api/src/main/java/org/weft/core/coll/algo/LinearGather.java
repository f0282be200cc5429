package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Linear gather (and gatherv): the root receives every member's block at once, straight into its place in the
 * receive buffer; the others send. One step, p − 1 messages into the root, no copies, any block sizes.
 */
public final class LinearGather {
    private LinearGather() {
    }

    /**
     * Gathers {@code mine} of every member into {@code blocks[i]} of the root ({@code blocks} unused elsewhere;
     * {@code mine == null} at the root: in place, its block is already there).
     */
    public static void append(Schedule s, Members m, MemorySegment mine, MemorySegment[] blocks, int root) {
        if (!m.includesMe()) {
            return;
        }
        if (m.me() != root) {
            s.send(mine, m.world(root)).endRound();
            return;
        }
        for (int i = 0; i < m.size(); i++) {
            if (i != root) {
                s.receive(blocks[i], m.world(i));
            } else if (mine != null) {
                MemorySegment own = blocks[i];
                s.local(() -> MemorySegment.copy(mine, 0, own, 0, own.byteSize()));
            }
        }
        s.endRound();
    }
}
