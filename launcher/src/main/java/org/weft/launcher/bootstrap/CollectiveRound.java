package org.weft.launcher.bootstrap;

import java.util.Arrays;
import org.weft.adi.bootstrap.BootstrapProtocol;

/**
 * The one collective in flight (ranks call collectives in the same order and wait for each answer, so there is
 * never more than one): collects each rank's contribution and builds the answer when the last one arrives.
 * Thread-safe; the caller sends the answer outside the lock.
 */
final class CollectiveRound {
    /** The answer to send to every rank when a round completes. */
    record Answer(byte type, byte[] body) {
    }

    /** Thrown when a rank's contribution does not fit the round. */
    static final class Mismatch extends Exception {
        Mismatch(String message) {
            super(message);
        }
    }

    private final byte[][] contributions;
    private byte kind;
    private int arrived;

    CollectiveRound(int size) {
        this.contributions = new byte[size][];
    }

    /**
     * Records {@code rank}'s contribution to a collective of {@code type} (ALLGATHER or BARRIER).
     *
     * @return the answer when this was the last contribution, else {@code null}
     */
    synchronized Answer contribute(int rank, byte type, byte[] body) throws Mismatch {
        if (kind != 0 && kind != type) {
            throw new Mismatch("rank " + rank + " called " + name(type) + " while other ranks called " + name(kind));
        }
        if (contributions[rank] != null) {
            throw new Mismatch("rank " + rank + " contributed twice to one " + name(type));
        }
        kind = type;
        contributions[rank] = body;
        if (++arrived < contributions.length) {
            return null;
        }
        Answer answer = type == BootstrapProtocol.ALLGATHER
                ? new Answer(BootstrapProtocol.GATHERED, BootstrapProtocol.gathered(contributions))
                : new Answer(BootstrapProtocol.RELEASED, new byte[0]);
        Arrays.fill(contributions, null);
        arrived = 0;
        kind = 0;
        return answer;
    }

    private static String name(byte type) {
        return type == BootstrapProtocol.ALLGATHER ? "allGather" : "barrier";
    }
}
