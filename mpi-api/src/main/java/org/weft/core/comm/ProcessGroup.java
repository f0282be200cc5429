package org.weft.core.comm;

import java.util.Arrays;
import java.util.BitSet;

import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.error.MpiErrors;

/**
 * An ordered set of processes ({@code MPI_Group}), stored as the world rank of each member. Immutable.
 * The world group is the identity map and answers lookups without searching. The set operations follow
 * MPI 4.1 §7.3.2: results keep the order of the first group, then of the second; bad ranks are {@code ERR_RANK},
 * bad ranges {@code ERR_ARG}.
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

    /** The members' world ranks, in group order (a copy). */
    public int[] worldRanks() {
        return worldRanks.clone();
    }

    /** True if the process with {@code worldRank} is a member. */
    public boolean contains(int worldRank) {
        return rankOf(worldRank) != Ranks.UNDEFINED;
    }

    /** {@code MPI_Group_union}: the members of this group, then those of {@code other} not in this one. */
    public ProcessGroup union(ProcessGroup other) {
        int[] result = Arrays.copyOf(worldRanks, worldRanks.length + other.worldRanks.length);
        int n = worldRanks.length;
        for (int w : other.worldRanks) {
            if (!contains(w)) {
                result[n++] = w;
            }
        }
        return of(Arrays.copyOf(result, n));
    }

    /** {@code MPI_Group_intersection}: the members of this group that are also in {@code other}, in this order. */
    public ProcessGroup intersection(ProcessGroup other) {
        return filter(other, true);
    }

    /** {@code MPI_Group_difference}: the members of this group that are not in {@code other}, in this order. */
    public ProcessGroup difference(ProcessGroup other) {
        return filter(other, false);
    }

    private ProcessGroup filter(ProcessGroup other, boolean keepMembersOfOther) {
        return of(Arrays.stream(worldRanks).filter(w -> other.contains(w) == keepMembersOfOther).toArray());
    }

    /** {@code MPI_Group_incl}: members {@code ranks}, in that order; {@code ERR_RANK} if invalid or repeated. */
    public ProcessGroup include(int[] ranks) {
        checkDistinctRanks(ranks);
        int[] result = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            result[i] = worldRanks[ranks[i]];
        }
        return of(result);
    }

    /** {@code MPI_Group_excl}: every member but {@code ranks}, in group order; {@code ERR_RANK} if invalid. */
    public ProcessGroup exclude(int[] ranks) {
        BitSet excluded = checkDistinctRanks(ranks);
        int[] result = new int[worldRanks.length - ranks.length];
        int n = 0;
        for (int r = 0; r < worldRanks.length; r++) {
            if (!excluded.get(r)) {
                result[n++] = worldRanks[r];
            }
        }
        return of(result);
    }

    /** {@code MPI_Group_range_incl}: triplets (first, last, stride) expanded in order. */
    public ProcessGroup includeRanges(int[][] ranges) {
        return include(expand(ranges));
    }

    /** {@code MPI_Group_range_excl}: every member but those in the triplets (first, last, stride). */
    public ProcessGroup excludeRanges(int[][] ranges) {
        return exclude(expand(ranges));
    }

    private int[] expand(int[][] ranges) {
        if (ranges == null) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "the ranges are null");
        }
        int[] ranks = new int[0];
        int n = 0;
        for (int[] range : ranges) {
            if (range == null || range.length < 3 || range[2] == 0) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "a range is (first, last, stride) with stride != 0");
            }
            int first = range[0];
            int last = range[1];
            int stride = range[2];
            checkRank(first);
            checkRank(last);
            if ((last - first) * (long) stride < 0) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "range " + Arrays.toString(range) + " runs backwards");
            }
            for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                if (n == ranks.length) {
                    ranks = Arrays.copyOf(ranks, Math.max(8, 2 * n));
                }
                ranks[n++] = r;
            }
        }
        return Arrays.copyOf(ranks, n);
    }

    private BitSet checkDistinctRanks(int[] ranks) {
        if (ranks == null) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "the ranks are null");
        }
        BitSet seen = new BitSet(worldRanks.length);
        for (int r : ranks) {
            checkRank(r);
            if (seen.get(r)) {
                throw MpiErrors.error(ErrorClass.ERR_RANK, "rank " + r + " is named twice");
            }
            seen.set(r);
        }
        return seen;
    }

    /** {@code ERR_RANK} unless {@code rank} is a rank of this group. */
    public void checkRank(int rank) {
        if (rank < 0 || rank >= worldRanks.length) {
            throw MpiErrors.error(ErrorClass.ERR_RANK, "rank " + rank + " is not in a group of size "
                    + worldRanks.length);
        }
    }

    @Override
    public String toString() {
        return "group" + Arrays.toString(worldRanks);
    }
}
