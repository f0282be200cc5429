package org.weft.core.comm;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands out context ids, two per communicator (point-to-point, collective). {@code MPI_COMM_WORLD} has 0/1,
 * {@code MPI_COMM_SELF} 2/3. Communicators created later must agree on their ids collectively; that
 * agreement (e.g. an allreduce over a free-id mask) belongs to communicator creation, not here.
 */
public final class ContextIds {
    public static final int WORLD = 0;
    public static final int SELF = 2;
    private static final int FIRST_FREE = 4;

    private final AtomicInteger next = new AtomicInteger(FIRST_FREE);

    /** The next pair of ids on this process (the even one is returned; the odd one is its collective id). */
    public int allocatePair() {
        return next.getAndAdd(2);
    }
}
