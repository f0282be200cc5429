package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Multilevel allreduce for commutative operations: a multilevel reduction to the leader of each site, an
 * allreduce among the site leaders (recursive doubling), and a multilevel broadcast within each site. The links
 * between sites carry about sites × log2(sites) messages, whatever the number of ranks.
 */
public final class HierarchicalAllreduce {
    private HierarchicalAllreduce() {
    }

    /** Combines every member's {@code send} into every member's {@code recv} ({@code recv} may be {@code send}). */
    public static void append(Schedule s, Device device, Members m, MemorySegment send, MemorySegment recv,
                              int count, Combiner op) {
        Hierarchy sites = Hierarchy.split(device, m, 0);
        Members site = sites.myGroup();
        int leader = 0; // each site's lowest member leads it
        HierarchicalReduce.append(s, device, site, send, recv, count, op, leader);
        Members leaders = sites.leaderMembers(0);
        if (leaders.includesMe()) {
            RecursiveDoublingAllreduce.append(s, leaders, recv, recv, count, op);
        }
        HierarchicalBcast.append(s, device, site, recv, leader);
    }
}
