package org.weft.adi.idle;

/** Never gives up the core: the lowest latency, for a rank that has a core of its own and nothing else to do. */
public final class BusySpinIdleStrategy implements IdleStrategy {
    @Override
    public void idle(int workCount) {
        if (workCount == 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset() {
    }
}
