package org.weft.core.coll.algo;

import org.weft.adi.Device;
import org.weft.core.coll.sched.Members;

/**
 * The levels of a communicator's layout (MPICH-G2's multilevel topology): its members split by site and, inside a
 * site, by host. An algorithm runs over the leaders of the groups of one level (crossing that level's slow links
 * once per group) and then inside each group, one level down.
 *
 * @param members the members being split
 * @param groups  member indices of each group, groups in order of their lowest member
 * @param mine    index of this process's group
 */
public record Hierarchy(Members members, int[][] groups, int mine) {
    /** Site is level 0 ({@link Members#BY_SITE}), host level 1 ({@link Members#BY_HOST}). */
    public static final int LEVELS = 2;

    /** Splits {@code m} by the locality key of {@code level} (the split is made once per members, see Members). */
    public static Hierarchy split(Device device, Members m, int level) {
        int[][] groups = m.groups(device, level);
        return new Hierarchy(m, groups, indexOfGroup(groups, m.me()));
    }

    /** True when the communicator spans several sites or hosts, so that a hierarchical algorithm pays off. */
    public static boolean spansSeveral(Device device, Members m) {
        return m.groups(device, Members.BY_HOST).length > 1;
    }

    /** True when every member is in one group: the level can be skipped. */
    public boolean trivial() {
        return groups.length == 1;
    }

    /** Index of {@code member}'s group. */
    public int groupOf(int member) {
        int g = indexOfGroup(groups, member);
        if (g < 0) {
            throw new IllegalArgumentException("member " + member + " not in " + members);
        }
        return g;
    }

    /** Index of the group holding {@code member}, or −1. */
    private static int indexOfGroup(int[][] groups, int member) {
        for (int g = 0; g < groups.length; g++) {
            for (int i : groups[g]) {
                if (i == member) {
                    return g;
                }
            }
        }
        return -1;
    }

    /** The leader of each group: {@code root} in its own group, the lowest member elsewhere. */
    public int[] leaders(int root) {
        int[] leaders = new int[groups.length];
        int rootGroup = groupOf(root);
        for (int g = 0; g < groups.length; g++) {
            leaders[g] = g == rootGroup ? root : groups[g][0];
        }
        return leaders;
    }

    /** The leaders as members (this process's index among them, or −1). */
    public Members leaderMembers(int root) {
        return members.subset(leaders(root));
    }

    /** The members of this process's group. */
    public Members myGroup() {
        return members.subset(groups[mine]);
    }

    /** Index, within this process's group, of its leader. */
    public int myLeaderIndex(int root) {
        int leader = leaders(root)[mine];
        int[] group = groups[mine];
        for (int i = 0; i < group.length; i++) {
            if (group[i] == leader) {
                return i;
            }
        }
        throw new IllegalStateException("leader outside its group");
    }
}
