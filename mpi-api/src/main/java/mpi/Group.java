package mpi;

import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.ProcessGroup;

/** A group of processes ({@code MPI_Group}). Set operations on groups are not implemented yet. */
public final class Group implements Freeable {
    private final ProcessGroup group;
    private final int myWorldRank;
    private boolean freed;

    Group(ProcessGroup group, int myWorldRank) {
        this.group = group;
        this.myWorldRank = myWorldRank;
    }

    private ProcessGroup usable(String call) throws MPIException {
        if (freed) {
            throw Errors.plain(call, ErrorClass.ERR_GROUP, "the group has been freed");
        }
        return group;
    }

    /** {@code MPI_Group_size}. */
    public int getSize() throws MPIException {
        return usable("MPI_Group_size").size();
    }

    /** {@code MPI_Group_rank}: this process's rank in the group, or {@code MPI.UNDEFINED}. */
    public int getRank() throws MPIException {
        return myWorldRank < 0 ? Ranks.UNDEFINED : usable("MPI_Group_rank").rankOf(myWorldRank);
    }

    /** {@code MPI_Group_free}. */
    public void free() throws MPIException {
        usable("MPI_Group_free");
        freed = group != ProcessGroup.empty();
    }

    public boolean isNull() {
        return freed;
    }

    /** {@code MPI_Group_translate_ranks}. */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        ProcessGroup from = group1.usable("MPI_Group_translate_ranks");
        for (int r : ranks1) {
            if (r != Ranks.PROC_NULL && (r < 0 || r >= from.size())) {
                throw Errors.plain("MPI_Group_translate_ranks", ErrorClass.ERR_RANK, "invalid rank " + r);
            }
        }
        return from.translate(ranks1, group2.usable("MPI_Group_translate_ranks"));
    }

    /** {@code MPI_Group_compare}: {@code MPI.IDENT}, {@code MPI.SIMILAR} or {@code MPI.UNEQUAL}. */
    public static int compare(Group group1, Group group2) throws MPIException {
        return group1.usable("MPI_Group_compare").compare(group2.usable("MPI_Group_compare"));
    }

    /** {@code MPI_Group_union}. */
    public static Group union(Group group1, Group group2) throws MPIException {
        throw Errors.unsupported("MPI_Group_union");
    }

    /** {@code MPI_Group_intersection}. */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        throw Errors.unsupported("MPI_Group_intersection");
    }

    /** {@code MPI_Group_difference}. */
    public static Group difference(Group group1, Group group2) throws MPIException {
        throw Errors.unsupported("MPI_Group_difference");
    }

    /** {@code MPI_Group_incl}. */
    public Group incl(int[] ranks) throws MPIException {
        throw Errors.unsupported("MPI_Group_incl");
    }

    /** {@code MPI_Group_excl}. */
    public Group excl(int[] ranks) throws MPIException {
        throw Errors.unsupported("MPI_Group_excl");
    }

    /** {@code MPI_Group_range_incl}. */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        throw Errors.unsupported("MPI_Group_range_incl");
    }

    /** {@code MPI_Group_range_excl}. */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        throw Errors.unsupported("MPI_Group_range_excl");
    }
}
