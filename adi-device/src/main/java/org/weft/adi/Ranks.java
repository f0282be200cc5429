package org.weft.adi;

/** The special ranks and tags of MPI, with Open MPI's values. */
public final class Ranks {
    /** {@code MPI_ANY_SOURCE}: a receive that matches any sender. */
    public static final int ANY_SOURCE = -1;
    /** {@code MPI_ANY_TAG}: a receive that matches any tag. */
    public static final int ANY_TAG = -1;
    /** {@code MPI_PROC_NULL}: sends and receives to it complete at once and move nothing. */
    public static final int PROC_NULL = -2;
    /** {@code MPI_UNDEFINED}. */
    public static final int UNDEFINED = -32766;
    /** The largest tag a program may use (the {@code MPI_TAG_UB} attribute). */
    public static final int TAG_UB = Integer.MAX_VALUE;

    private Ranks() {
    }
}
