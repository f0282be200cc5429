package org.weft.core.coll.sched;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.weft.adi.Device;
import org.weft.adi.Locality;
import org.weft.core.comm.ProcessGroup;

/**
 * The ordered processes an algorithm runs over, by world rank, and this process's index among them ({@code -1}
 * when it is not a member). A communicator's group is one (made once per communicator, see
 * {@code CollectiveTraffic}); a site's ranks, or the leaders of every site, are others: hierarchical algorithms run
 * the flat ones over such subsets. Immutable; its split by site and by host is made on first use and kept, since
 * every collective call of the communicator asks for it.
 */
public final class Members {
    /** Split levels: by site, then by site and host. */
    public static final int BY_SITE = 0;
    public static final int BY_HOST = 1;

    private final int[] world;
    private final int me;
    private volatile int[][] bySite;
    private volatile int[][] byHost;

    public Members(int[] world, int me) {
        this.world = world;
        this.me = me;
    }

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

    /**
     * Member indices of each group when the members are split {@link #BY_SITE} or {@link #BY_HOST} (site and
     * host), groups in order of their lowest member; made once per level. Callers do not modify it.
     */
    public int[][] groups(Device device, int level) {
        int[][] groups = level == BY_SITE ? bySite : byHost;
        if (groups == null) {
            groups = split(device, level);
            if (level == BY_SITE) {
                bySite = groups;
            } else {
                byHost = groups;
            }
        }
        return groups;
    }

    private int[][] split(Device device, int level) {
        Map<String, List<Integer>> byKey = new LinkedHashMap<>();
        for (int i = 0; i < world.length; i++) {
            Locality where = device.locality(world[i]);
            String key = level == BY_SITE ? where.site() : where.site() + "\u0000" + where.host();
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        int[][] groups = new int[byKey.size()][];
        int g = 0;
        for (List<Integer> group : byKey.values()) {
            groups[g++] = group.stream().mapToInt(Integer::intValue).toArray();
        }
        return groups;
    }

    /** The world ranks of the members, in order (not to be modified). */
    public int[] world() {
        return world;
    }

    /** This process's index among the members, {@code -1} if it is not one. */
    public int me() {
        return me;
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
