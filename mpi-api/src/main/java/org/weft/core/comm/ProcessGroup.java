package org.weft.core.comm;

import java.util.Arrays;

import org.weft.adi.Ranks;

/**
 * An ordered set of processes ({@code MPI_Group}), stored as the world rank of each member. Immutable.
 * The world group is the identity map and answers lookups without searching.
 */
public final class ProcessGroup {
    /** {@code MPI_IDENT}, {@code MPI_SIMILAR}, {@code MPI_UNEQUAL} (Open MPI's values). */
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;

    private static final ProcessGroup EMPTY = new ProcessGroup(new int[0], false);

    private final int[] worldRanks;
    private final boolean identity;

    private ProcessGroup(int[] worldRanks, boolean identity) {
        this.worldRanks = worldRanks;
        this.identity = identity;
    }

    /** The group of all {@code size} processes of the world, in world-rank order. */
    public static ProcessGroup world(int size) {
        int[] ranks = new int[size];
        Arrays.setAll(ranks, i -> i);
        return new ProcessGroup(ranks, true);
    }

    /** A group of the given world ranks, in that order. */
    public static ProcessGroup of(int... worldRanks) {
        int[] copy = worldRanks.clone();
        boolean identity = true;
        for (int i = 0; i < copy.length; i++) {
            identity &= copy[i] == i;
        }
        return new ProcessGroup(copy, identity);
    }

    /** {@code MPI_GROUP_EMPTY}. */
    public static ProcessGroup empty() {
        return EMPTY;
    }

    public int size() {
        return worldRanks.length;
    }

    /** World rank of member {@code rank} (0 ≤ rank < size). */
    public int worldRank(int rank) {
        return identity ? rank : worldRanks[rank];
    }

    /** Rank in this group of the process with {@code worldRank}, or {@link Ranks#UNDEFINED} if not a member. */
    public int rankOf(int worldRank) {
        if (identity) {
            return worldRank >= 0 && worldRank < worldRanks.length ? worldRank : Ranks.UNDEFINED;
        }
        for (int i = 0; i < worldRanks.length; i++) {
            if (worldRanks[i] == worldRank) {
                return i;
            }
        }
        return Ranks.UNDEFINED;
    }

    /** {@code MPI_Group_compare}: IDENT (same members, same order), SIMILAR (same members) or UNEQUAL. */
    public int compare(ProcessGroup other) {
        if (Arrays.equals(worldRanks, other.worldRanks)) {
            return IDENT;
        }
        int[] a = worldRanks.clone();
        int[] b = other.worldRanks.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? SIMILAR : UNEQUAL;
    }

    /** {@code MPI_Group_translate_ranks}: the rank in {@code other} of each of {@code ranks} of this group. */
    public int[] translate(int[] ranks, ProcessGroup other) {
        int[] result = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            result[i] = r == Ranks.PROC_NULL ? Ranks.PROC_NULL : other.rankOf(worldRank(r));
        }
        return result;
    }
}
