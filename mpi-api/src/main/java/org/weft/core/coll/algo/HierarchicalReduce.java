package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Multilevel reduction for commutative operations (MPICH-G2): each host reduces to its leader, each site's host
 * leaders to the site leader, and the site leaders to the root (which leads its own site and host). The slow
 * links between sites carry sites − 1 messages, whatever the number of ranks.
 */
public final class HierarchicalReduce {
    private HierarchicalReduce() {
    }

    /** Combines every member's {@code send} into {@code recv} of member {@code root} (unused elsewhere). */
    public static void append(Schedule s, Device device, Members m, MemorySegment send, MemorySegment recv,
                              int count, Combiner op, int root) {
        append(s, device, m, send, recv, count, op, root, 0);
    }

    private static void append(Schedule s, Device device, Members m, MemorySegment send, MemorySegment recv,
                               int count, Combiner op, int root, int level) {
        if (level == Hierarchy.LEVELS) {
            BinomialReduce.append(s, m, send, recv, count, op, root);
            return;
        }
        Hierarchy h = Hierarchy.split(device, m, level);
        if (h.trivial()) {
            append(s, device, m, send, recv, count, op, root, level + 1);
            return;
        }
        Members leaders = h.leaderMembers(root);
        boolean leader = leaders.includesMe();
        MemorySegment partial = m.me() == root ? recv : leader ? Blocks.scratch(send.byteSize()) : null;
        append(s, device, h.myGroup(), send, partial, count, op, h.myLeaderIndex(root), level + 1);
        if (leader) {
            BinomialReduce.append(s, leaders, partial, recv, count, op, h.groupOf(root));
        }
    }
}
