package org.weft.mm.progress;

import org.weft.adi.idle.BackoffIdleStrategy;
import org.weft.adi.idle.IdleStrategy;
import org.weft.mm.spi.CommModule;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The duty cycle (STYLE.md #6, #7): one pass polls every module that delivers on the caller's thread and returns
 * the work done; a wait repeats passes and hands zero-work passes to an idle strategy that spins, yields, then
 * parks. Completions on other threads wake parked waiters through {@link Waiters}.
 */
public final class ProgressEngine {
    private final CommModule[] modules;
    private final Waiters waiters;
    private final ThreadLocal<IdleStrategy> idleStrategies =
            ThreadLocal.withInitial(BackoffIdleStrategy::oversubscribed);

    public ProgressEngine(List<CommModule> modules, Waiters waiters) {
        this.modules = modules.toArray(CommModule[]::new);
        this.waiters = waiters;
    }

    /** One pass over the modules; returns the RSRs delivered. */
    public int poll() {
        int work = 0;
        for (CommModule module : modules) {
            work += module.poll();
        }
        return work;
    }

    /** Polls until {@code done}, backing off when a pass finds nothing. */
    public void await(BooleanSupplier done) {
        if (done.getAsBoolean()) {
            return;
        }
        IdleStrategy idle = idleStrategies.get();
        idle.reset();
        Thread self = Thread.currentThread();
        waiters.add(self);
        try {
            while (true) {
                int work = poll();
                if (done.getAsBoolean()) {
                    return;
                }
                idle.idle(work);
            }
        } finally {
            waiters.remove(self);
        }
    }
}
