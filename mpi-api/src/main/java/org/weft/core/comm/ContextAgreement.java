package org.weft.core.comm;

import java.util.concurrent.locks.LockSupport;

/**
 * One agreement on new context ids among the processes of a communicator being created, repeated until it
 * succeeds (see {@link ContextIds}). How the offers are combined is given by a {@link MaskExchange}: an
 * allreduce over the parent intracommunicator, or, for intercommunicators, an allreduce in each group joined
 * by its two leaders.
 */
final class ContextAgreement {
    /** Combines every process's offer in place into their bitwise AND. Collective over the participants. */
    @FunctionalInterface
    interface MaskExchange {
        void andAll(int[] offer);
    }

    private static final long FIRST_BACKOFF_NANOS = 20_000;
    private static final long MAX_BACKOFF_NANOS = 2_000_000;

    private ContextAgreement() {
    }

    /**
     * Agrees on {@code count} pairs of context ids; returns their even ids, lowest first. Every participant calls
     * it; {@code member} is false on those that will not belong to the new communicator (they take no ids).
     * {@code priority} orders concurrent agreements of one process: the parent's context id.
     */
    static int[] agree(ContextIds ids, int priority, MaskExchange exchange, int count, boolean member) {
        Object agreement = new Object();
        ids.enter(agreement, priority);
        try {
            long backoff = FIRST_BACKOFF_NANOS;
            while (true) {
                int[] offer = ids.offer(agreement);
                exchange.andAll(offer);
                int[] contexts = ids.take(agreement, offer, count, member);
                if (contexts != null) {
                    return contexts;
                }
                LockSupport.parkNanos(backoff); // another agreement holds a mask: let it finish
                backoff = Math.min(2 * backoff, MAX_BACKOFF_NANOS);
            }
        } finally {
            ids.leave(agreement);
        }
    }
}
