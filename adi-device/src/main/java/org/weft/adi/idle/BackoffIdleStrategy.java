package org.weft.adi.idle;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Spin, then yield, then park for growing periods up to a ceiling. On a machine with fewer cores than ranks a
 * waiter must give its core to the rank it waits for, so spinning is short by default; a completion that
 * happens on another thread should {@link LockSupport#unpark} the waiter to cut the park short.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final long maxSpins;
    private final long maxSpinNanos;
    private final long maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;
    private final Parker parker;
    private long spins;
    private long spinDeadline;
    private long yields;
    private long parkNanos;

    public BackoffIdleStrategy(long maxSpins, long maxYields, long minParkNanos, long maxParkNanos) {
        this(maxSpins, maxYields, minParkNanos, maxParkNanos, Parker.PARK);
    }

    /** As above, sleeping at the park step through {@code parker}. */
    public BackoffIdleStrategy(long maxSpins, long maxYields, long minParkNanos, long maxParkNanos, Parker parker) {
        this(maxSpins, Long.MAX_VALUE, maxYields, minParkNanos, maxParkNanos, parker);
    }

    /** As above, the spin phase also ending after {@code maxSpinNanos}. */
    public BackoffIdleStrategy(long maxSpins, long maxSpinNanos, long maxYields, long minParkNanos,
            long maxParkNanos, Parker parker) {
        this.maxSpins = maxSpins;
        this.maxSpinNanos = maxSpinNanos;
        this.maxYields = maxYields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.parker = parker;
        reset();
    }

    /**
     * Defaults suited to more ranks than cores: no spinning (the rank waited for is likely waiting for this core: 100
     * spins before the first yield made a 4-rank barrier on 2 cores 3x Open MPI's), some yields, parks up to 1 ms.
     */
    public static BackoffIdleStrategy oversubscribed(Parker parker) {
        return new BackoffIdleStrategy(0, 50, 1_000, 1_000_000, parker);
    }

    /**
     * Defaults for a rank with a core of its own: spin for 20 µs, then yield, then short parks. The spin is bounded in
     * time, not in passes: 20 000 passes took 1.7 ms, and when Linux had put both ranks of a job on one CPU the waiter
     * spun that long before the rank it waited for could run (every 16th 2-byte bcast 1.7 ms at both ranks).
     */
    public static BackoffIdleStrategy dedicatedCore(Parker parker) {
        return new BackoffIdleStrategy(Long.MAX_VALUE, 20_000, 2_000, 1_000, 100_000, parker);
    }

    @Override
    public void idle(int workCount) {
        idle(workCount, null);
    }

    @Override
    public void idle(int workCount, BooleanSupplier done) {
        if (workCount > 0) {
            reset();
        } else if (spins < maxSpins && withinSpinTime()) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else if (maxParkNanos > 0) {
            if (done == null) {
                parker.park(parkNanos);
            } else {
                parker.park(parkNanos, done);
            }
            parkNanos = Math.min(parkNanos << 1, maxParkNanos);
        } else {
            Thread.yield();
        }
    }

    /** Whether the spin phase's time is not yet up; the clock is read once every 32 spins. */
    private boolean withinSpinTime() {
        if (maxSpinNanos == Long.MAX_VALUE || (spins & 31) != 0) {
            return true;
        }
        long now = System.nanoTime();
        if (spins == 0) {
            spinDeadline = now + maxSpinNanos;
            return true;
        }
        if (now - spinDeadline < 0) {
            return true;
        }
        spins = maxSpins;
        return false;
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }
}
