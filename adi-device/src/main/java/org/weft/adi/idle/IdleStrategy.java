package org.weft.adi.idle;

/**
 * What a waiting thread does after a progress pass (after Agrona's {@code IdleStrategy}): {@link #idle(int)}
 * gets the work the pass did; zero means nothing happened and the strategy may spin, yield or park. Any work
 * resets the back-off. Instances hold per-thread state: one per waiting thread.
 */
public interface IdleStrategy {
    void idle(int workCount);

    /** Forgets the back-off state (a new wait begins). */
    void reset();
}
