package org.weft.core.coll.algo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.weft.adi.Device;
import org.weft.adi.Locality;
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
    /** Site is level 0, host level 1. */
    public static final int LEVELS = 2;

    /** Splits {@code m} by the locality key of {@code level}. */
    public static Hierarchy split(Device device, Members m, int level) {
        Map<String, List<Integer>> byKey = new LinkedHashMap<>();
        for (int i = 0; i < m.size(); i++) {
            Locality where = device.locality(m.world(i));
            String key = level == 0 ? where.site() : where.site() + "\u0000" + where.host();
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        int[][] groups = new int[byKey.size()][];
        int mine = -1;
        int g = 0;
        for (List<Integer> group : byKey.values()) {
            groups[g] = group.stream().mapToInt(Integer::intValue).toArray();
            if (group.contains(m.me())) {
                mine = g;
            }
            g++;
        }
        return new Hierarchy(m, groups, mine);
    }

    /** True when the communicator spans several sites or hosts, so that a hierarchical algorithm pays off. */
    public static boolean spansSeveral(Device device, Members m) {
        return split(device, m, LEVELS - 1).groups().length > 1;
    }

    /** True when every member is in one group: the level can be skipped. */
    public boolean trivial() {
        return groups.length == 1;
    }

    /** Index of {@code member}'s group. */
    public int groupOf(int member) {
        for (int g = 0; g < groups.length; g++) {
            for (int i : groups[g]) {
                if (i == member) {
                    return g;
                }
            }
        }
        throw new IllegalArgumentException("member " + member + " not in " + members);
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
