package org.weft.core.coll.algo;

import org.weft.adi.Device;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Multilevel barrier: the members of each site signal their site leader, the leaders run a dissemination barrier
 * among themselves, and each leader then releases its site. The links between sites carry
 * sites × ⌈log2 sites⌉ messages, whatever the number of ranks.
 */
public final class HierarchicalBarrier {
    private HierarchicalBarrier() {
    }

    /** Appends the rounds of a barrier among {@code m}. */
    public static void append(Schedule s, Device device, Members m) {
        Hierarchy sites = Hierarchy.split(device, m, 0);
        Members site = sites.myGroup();
        int leader = 0; // each site's lowest member leads it
        if (site.me() != leader) {
            s.signal(site.world(leader)).endRound();
            s.awaitSignal(site.world(leader)).endRound();
            return;
        }
        for (int i = 0; i < site.size(); i++) {
            if (i != leader) {
                s.awaitSignal(site.world(i));
            }
        }
        s.endRound();
        DisseminationBarrier.append(s, sites.leaderMembers(0));
        for (int i = 0; i < site.size(); i++) {
            if (i != leader) {
                s.signal(site.world(i));
            }
        }
        s.endRound();
    }
}
