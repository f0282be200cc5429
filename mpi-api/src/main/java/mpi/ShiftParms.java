package mpi;

/** What {@link CartComm#shift} returns ({@code MPI_Cart_shift}): the ranks to receive from and send to. */
public final class ShiftParms {
    private final int source;
    private final int dest;

    ShiftParms(int source, int dest) {
        this.source = source;
        this.dest = dest;
    }

    /** The rank this process receives from, or {@code MPI.PROC_NULL}. */
    public int getRankSource() {
        return source;
    }

    /** The rank this process sends to, or {@code MPI.PROC_NULL}. */
    public int getRankDest() {
        return dest;
    }
}
