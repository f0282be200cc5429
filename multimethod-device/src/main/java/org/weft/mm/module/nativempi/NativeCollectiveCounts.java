package org.weft.mm.module.nativempi;

import java.util.Locale;
import java.util.StringJoiner;

/**
 * How many collectives of each kind this process ran through libmpi's own ({@link NativeGroup}), for the report
 * ({@code weftrun --report}: one line per rank). Counted under libmpi's gate, which every such call holds; read
 * without it (a report may be a call behind).
 */
final class NativeCollectiveCounts {
    /** The collectives a {@link NativeGroup} runs. */
    enum Kind { BARRIER, BCAST, REDUCE, ALLREDUCE, REDUCE_SCATTER_BLOCK, ALLGATHER, ALLTOALL, GATHER, SCATTER }

    private final long[] counts = new long[Kind.values().length];
    private volatile int groups;
    /** Blocking calls made at once (nobody could need this process's progress), and after all members came. */
    private long atOnce;
    private long afterAll;

    void add(Kind kind) {
        counts[kind.ordinal()]++;
    }

    /** A blocking call is made: at once, or ({@code waited}) after every member came. */
    void cameTo(boolean waited) {
        if (waited) {
            afterAll++;
        } else {
            atOnce++;
        }
    }

    /** A native communicator was made. */
    void groupMade() {
        groups++;
    }

    /**
     * {@code "native collectives through Open MPI's own: 3 communicators, 1002 calls (allreduce 1000, barrier 2);
     * blocking 1000 at once, 2 after all members came"}, or {@code null} when none ran and no native communicator
     * was made.
     */
    String describe(String library) {
        StringJoiner kinds = new StringJoiner(", ");
        long total = 0;
        for (Kind kind : Kind.values()) {
            long n = counts[kind.ordinal()];
            total += n;
            if (n > 0) {
                kinds.add(kind.name().toLowerCase(Locale.ROOT) + " " + n);
            }
        }
        if (groups == 0 && total == 0) {
            return null;
        }
        return "native collectives through " + library + ": " + groups + " communicator" + (groups == 1 ? "" : "s")
                + ", " + total + " calls" + (total > 0 ? " (" + kinds + ")" : "") + "; blocking " + atOnce
                + " at once, " + afterAll + " after all members came";
    }
}
