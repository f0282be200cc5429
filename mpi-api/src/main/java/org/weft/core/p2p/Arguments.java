package org.weft.core.p2p;

import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.Communicator;
import org.weft.core.error.MpiErrors;

/** The argument checks of point-to-point calls, with the MPI error class of each violation. */
public final class Arguments {
    private Arguments() {
    }

    /**
     * A destination: a rank of {@code comm}'s peer group (the remote group of an intercommunicator) or
     * {@code PROC_NULL}; else {@code ERR_RANK}.
     */
    public static void checkDestination(Communicator comm, int dest) {
        int size = comm.peerGroup().size();
        if (dest != Ranks.PROC_NULL && (dest < 0 || dest >= size)) {
            throw MpiErrors.error(ErrorClass.ERR_RANK, "invalid rank " + dest + " (communicator "
                    + comm.name() + (comm.isInter() ? " has a remote group of size " : " has size ") + size + ")");
        }
    }

    /** A source: a rank, {@code ANY_SOURCE} or {@code PROC_NULL}; else {@code ERR_RANK}. */
    public static void checkSource(Communicator comm, int source) {
        if (source != Ranks.ANY_SOURCE) {
            checkDestination(comm, source);
        }
    }

    /** A send tag: 0 … {@code TAG_UB}; else {@code ERR_TAG}. */
    public static void checkSendTag(int tag) {
        if (tag < 0) {
            throw MpiErrors.error(ErrorClass.ERR_TAG, "invalid tag " + tag + " (tags are 0.." + Ranks.TAG_UB + ")");
        }
    }

    /** A receive tag: 0 … {@code TAG_UB} or {@code ANY_TAG}; else {@code ERR_TAG}. */
    public static void checkReceiveTag(int tag) {
        if (tag != Ranks.ANY_TAG) {
            checkSendTag(tag);
        }
    }
}
