package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Multilevel broadcast (MPICH-G2): a binomial broadcast among the site leaders (the root leads its own site),
 * then within each site among the host leaders, then within each host. The slow links between sites carry
 * sites − 1 messages, whatever the number of ranks.
 */
public final class HierarchicalBcast {
    private HierarchicalBcast() {
    }

    /** Copies {@code data} of member {@code root} into {@code data} of every member. */
    public static void append(Schedule s, Device device, Members m, MemorySegment data, int root) {
        append(s, device, m, data, root, 0);
    }

    private static void append(Schedule s, Device device, Members m, MemorySegment data, int root, int level) {
        if (level == Hierarchy.LEVELS) {
            BinomialBcast.append(s, m, data, root);
            return;
        }
        Hierarchy h = Hierarchy.split(device, m, level);
        if (!h.trivial()) {
            BinomialBcast.append(s, h.leaderMembers(root), data, h.groupOf(root));
        }
        append(s, device, h.myGroup(), data, h.myLeaderIndex(root), level + 1);
    }
}
