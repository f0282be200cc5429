package mpi;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.ProcessGroup;

/**
 * A group of processes ({@code MPI_Group}) over the core's {@link ProcessGroup}. Bad ranks are {@code ERR_RANK},
 * bad ranges {@code ERR_ARG}, a freed group {@code ERR_GROUP}; group calls have no communicator, so errors are
 * raised on {@code MPI_COMM_WORLD} (its handler decides whether they abort the job or throw).
 */
public final class Group implements Freeable {
    private final ProcessGroup group;
    private final int myWorldRank;
    private boolean freed;

    Group(ProcessGroup group, int myWorldRank) {
        this.group = group;
        this.myWorldRank = myWorldRank;
    }

    /** The core group; {@code ERR_GROUP} once freed. */
    ProcessGroup core(String call) throws MPIException {
        if (freed) {
            throw Errors.onWorld(call, ErrorClass.ERR_GROUP, "the group has been freed");
        }
        return group;
    }

    /** A group made from this one and {@code other}; this process's world rank carries over. */
    private Group derived(ProcessGroup result, Group other) {
        return new Group(result, Math.max(myWorldRank, other == null ? -1 : other.myWorldRank));
    }

    /** A core step on groups that may throw the core's errors. */
    @FunctionalInterface
    private interface GroupStep {
        ProcessGroup apply() throws MPIException;
    }

    private static ProcessGroup run(String call, GroupStep step) throws MPIException {
        try {
            return step.apply();
        } catch (DeviceException e) {
            throw Errors.onWorld(call, e);
        }
    }

    /** {@code MPI_Group_size}. */
    public int getSize() throws MPIException {
        return core("MPI_Group_size").size();
    }

    /** {@code MPI_Group_rank}: this process's rank in the group, or {@code MPI.UNDEFINED}. */
    public int getRank() throws MPIException {
        ProcessGroup g = core("MPI_Group_rank");
        return myWorldRank < 0 ? Ranks.UNDEFINED : g.rankOf(myWorldRank);
    }

    /** {@code MPI_Group_free}: {@code MPI.GROUP_EMPTY} stays usable. */
    public void free() throws MPIException {
        core("MPI_Group_free");
        freed = group != ProcessGroup.empty();
    }

    public boolean isNull() {
        return freed;
    }

    /** {@code MPI_Group_translate_ranks}: {@code MPI.UNDEFINED} for members of group1 not in group2. */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        String call = "MPI_Group_translate_ranks";
        ProcessGroup from = group1.core(call);
        ProcessGroup to = group2.core(call);
        if (ranks1 == null) {
            throw Errors.onWorld(call, ErrorClass.ERR_ARG, "the ranks are null");
        }
        for (int r : ranks1) {
            if (r != Ranks.PROC_NULL && (r < 0 || r >= from.size())) {
                throw Errors.onWorld(call, ErrorClass.ERR_RANK, "invalid rank " + r);
            }
        }
        return from.translate(ranks1, to);
    }

    /** {@code MPI_Group_compare}: {@code MPI.IDENT}, {@code MPI.SIMILAR} or {@code MPI.UNEQUAL}. */
    public static int compare(Group group1, Group group2) throws MPIException {
        return group1.core("MPI_Group_compare").compare(group2.core("MPI_Group_compare"));
    }

    /** {@code MPI_Group_union}: group1's members, then group2's not in group1. */
    public static Group union(Group group1, Group group2) throws MPIException {
        ProcessGroup a = group1.core("MPI_Group_union");
        return group1.derived(a.union(group2.core("MPI_Group_union")), group2);
    }

    /** {@code MPI_Group_intersection}: group1's members that are in group2, in group1's order. */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        ProcessGroup a = group1.core("MPI_Group_intersection");
        return group1.derived(a.intersection(group2.core("MPI_Group_intersection")), group2);
    }

    /** {@code MPI_Group_difference}: group1's members that are not in group2, in group1's order. */
    public static Group difference(Group group1, Group group2) throws MPIException {
        ProcessGroup a = group1.core("MPI_Group_difference");
        return group1.derived(a.difference(group2.core("MPI_Group_difference")), group2);
    }

    /** {@code MPI_Group_incl}: {@code ERR_RANK} for a rank outside the group or named twice. */
    public Group incl(int[] ranks) throws MPIException {
        ProcessGroup g = core("MPI_Group_incl");
        return derived(run("MPI_Group_incl", () -> g.include(ranks)), null);
    }

    /** {@code MPI_Group_excl}: {@code ERR_RANK} for a rank outside the group or named twice. */
    public Group excl(int[] ranks) throws MPIException {
        ProcessGroup g = core("MPI_Group_excl");
        return derived(run("MPI_Group_excl", () -> g.exclude(ranks)), null);
    }

    /** {@code MPI_Group_range_incl}: triplets (first, last, stride). */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        ProcessGroup g = core("MPI_Group_range_incl");
        return derived(run("MPI_Group_range_incl", () -> g.includeRanges(ranges)), null);
    }

    /** {@code MPI_Group_range_excl}: triplets (first, last, stride). */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        ProcessGroup g = core("MPI_Group_range_excl");
        return derived(run("MPI_Group_range_excl", () -> g.excludeRanges(ranges)), null);
    }
}
