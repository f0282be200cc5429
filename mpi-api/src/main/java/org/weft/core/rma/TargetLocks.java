package org.weft.core.rma;

import java.util.ArrayDeque;

/**
 * The passive-target locks of one window at its target ({@code MPI_Win_lock}): one exclusive holder or any number
 * of shared ones. A request that cannot be granted waits in arrival order, and a later shared request waits behind
 * an exclusive one (no starvation of writers). Used by the target service's thread only.
 */
final class TargetLocks {
    /** Lock types, Open MPI's values ({@code MPI.LOCK_EXCLUSIVE}, {@code MPI.LOCK_SHARED}). */
    static final int EXCLUSIVE = 1;
    static final int SHARED = 2;

    /** Tells an origin that it holds the lock it asked for. */
    @FunctionalInterface
    interface Grant {
        void grant(int origin, int replyTag);
    }

    private record Waiting(int origin, int type, int replyTag) {
    }

    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private int exclusiveHolder = -1;
    private int sharedHolders;

    /** {@code origin} asks for a lock of {@code type}: granted now or when the holders let it. */
    void request(int origin, int type, int replyTag, Grant grant) {
        if (waiting.isEmpty() && grantable(type)) {
            take(origin, type);
            grant.grant(origin, replyTag);
        } else {
            waiting.add(new Waiting(origin, type, replyTag));
        }
    }

    /** {@code origin} gives its lock back; waiting requests that can now hold the lock are granted in order. */
    void release(int origin, Grant grant) {
        if (exclusiveHolder == origin) {
            exclusiveHolder = -1;
        } else if (sharedHolders > 0) {
            sharedHolders--;
        }
        while (!waiting.isEmpty() && grantable(waiting.peek().type)) {
            Waiting next = waiting.poll();
            take(next.origin, next.type);
            grant.grant(next.origin, next.replyTag);
        }
    }

    private boolean grantable(int type) {
        return exclusiveHolder < 0 && (type == SHARED || sharedHolders == 0);
    }

    private void take(int origin, int type) {
        if (type == EXCLUSIVE) {
            exclusiveHolder = origin;
        } else {
            sharedHolders++;
        }
    }
}
