package org.weft.core.coll.sched;

import java.util.Arrays;

import org.weft.core.comm.ProcessGroup;

/**
 * The ordered processes an algorithm runs over, by world rank, and this process's index among them ({@code -1}
 * when it is not a member). A communicator's group is one; a site's ranks, or the leaders of every site, are
 * others: hierarchical algorithms run the flat ones over such subsets.
 */
public record Members(int[] world, int me) {
    /** The members of {@code group}, seen from world rank {@code myWorldRank}. */
    public static Members of(ProcessGroup group, int myWorldRank) {
        int[] world = new int[group.size()];
        for (int i = 0; i < world.length; i++) {
            world[i] = group.worldRank(i);
        }
        return new Members(world, group.rankOf(myWorldRank));
    }

    /** The members at {@code indices} (in that order), seen from the same process. */
    public Members subset(int[] indices) {
        int[] sub = new int[indices.length];
        int mine = -1;
        for (int i = 0; i < indices.length; i++) {
            sub[i] = world[indices[i]];
            if (indices[i] == me) {
                mine = i;
            }
        }
        return new Members(sub, mine);
    }

    public int size() {
        return world.length;
    }

    /** World rank of member {@code index}. */
    public int world(int index) {
        return world[index];
    }

    /** True if this process is one of the members. */
    public boolean includesMe() {
        return me >= 0;
    }

    @Override
    public String toString() {
        return "Members" + Arrays.toString(world) + " me=" + me;
    }
}
