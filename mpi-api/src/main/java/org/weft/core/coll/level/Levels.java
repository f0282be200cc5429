package org.weft.core.coll.level;

import org.weft.core.comm.Communicator;
import org.weft.core.comm.Intracomms;
import org.weft.core.comm.ProcessGroup;

/**
 * A communicator's two levels: the internal communicator of this process's group (its site, or its host when all
 * members are in one site), ranked as in the parent, and the internal communicator of the groups' leaders (each
 * group's lowest rank; {@code null} where this process leads none), ranked in the groups' order. Made once,
 * collectively, and freed with the parent.
 *
 * @param group       this process's group's communicator
 * @param leaders     the leaders' communicator, or {@code null}
 * @param groupOf     the group (the leader's rank among the leaders) of each parent rank
 * @param indexOf     the rank of each parent rank in its group's communicator
 * @param contiguous  whether every group is a run of consecutive parent ranks (then combining inside the groups and
 *                    then across them, both in rank order, keeps a non-commutative operation's order)
 */
record Levels(Communicator group, Communicator leaders, int[] groupOf, int[] indexOf, boolean contiguous) {

    /** Makes the levels of {@code parent} split into {@code groups} (parent ranks, each group ascending). */
    static Levels make(Communicator parent, int[][] groups) {
        int[] groupOf = new int[parent.size()];
        int[] indexOf = new int[parent.size()];
        int[] leaderWorld = new int[groups.length];
        boolean contiguous = true;
        for (int g = 0; g < groups.length; g++) {
            int[] members = groups[g];
            leaderWorld[g] = parent.toWorld(members[0]);
            for (int i = 0; i < members.length; i++) {
                groupOf[members[i]] = g;
                indexOf[members[i]] = i;
                contiguous &= members[i] == members[0] + i;
            }
        }
        int[] mine = groups[groupOf[parent.rank()]];
        int[] mineWorld = new int[mine.length];
        for (int i = 0; i < mine.length; i++) {
            mineWorld[i] = parent.toWorld(mine[i]);
        }
        Communicator[] made = Intracomms.levels(parent, ProcessGroup.of(mineWorld), ProcessGroup.of(leaderWorld));
        return new Levels(made[0], made[1], groupOf, indexOf, contiguous);
    }

    /** Whether this process leads its group. */
    boolean leads() {
        return leaders != null;
    }

    /** Frees both communicators. */
    void free() {
        group.free();
        if (leaders != null) {
            leaders.free();
        }
    }
}
