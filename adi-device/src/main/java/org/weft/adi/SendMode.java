package org.weft.adi;

/** The send modes the device implements. Buffered sends are built above the device from standard ones. */
public enum SendMode {
    /** {@code MPI_Send}: the device chooses eager or rendezvous. */
    STANDARD,
    /** {@code MPI_Ssend}: completes only after the receiver matched the message. */
    SYNCHRONOUS,
    /** {@code MPI_Rsend}: the receive is known to be posted; treated as standard. */
    READY
}
