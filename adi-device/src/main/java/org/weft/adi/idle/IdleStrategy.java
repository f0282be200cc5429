package org.weft.adi.idle;

import java.util.function.BooleanSupplier;

/**
 * What a waiting thread does after a progress pass (after Agrona's {@code IdleStrategy}): {@link #idle(int)}
 * gets the work the pass did; zero means nothing happened and the strategy may spin, yield or park. Any work
 * resets the back-off. Instances hold per-thread state: one per waiting thread.
 */
public interface IdleStrategy {
    void idle(int workCount);

    /**
     * As {@link #idle(int)}, for a wait whose condition is {@code done}, which a strategy that sleeps passes to its
     * {@link Parker#park(long, BooleanSupplier)}.
     */
    default void idle(int workCount, BooleanSupplier done) {
        idle(workCount);
    }

    /** Forgets the back-off state (a new wait begins). */
    void reset();
}
