package org.weft.core.coll;

/**
 * Tags of collective traffic in a communicator's collective context, one range per kind of operation. Every
 * rank calls the collectives of a communicator in the same order and every message is received from a named
 * source; with non-overtaking order per sender, consecutive collectives cannot take each other's messages. The
 * separate ranges add a guard: a mismatch between kinds of collectives cannot silently match.
 */
public final class CollectiveTags {
    /** {@code MPI_Barrier}: the round number is added. */
    public static final int BARRIER = 0x4241_0000;
    /** {@code MPI_Bcast}. */
    public static final int BCAST = 0x4243_0000;
    /** {@code MPI_Reduce}. */
    public static final int REDUCE = 0x4252_0000;
    /** The reduce phase of {@code MPI_Allreduce}. */
    public static final int ALLREDUCE_REDUCE = 0x4141_0000;
    /** The broadcast phase of {@code MPI_Allreduce}. */
    public static final int ALLREDUCE_BCAST = 0x4141_0001;

    private CollectiveTags() {
    }
}
