package org.weft.mm.progress;

import org.weft.adi.idle.IdleStrategy;
import org.weft.adi.param.Parameter;
import org.weft.adi.param.Parameters;
import org.weft.mm.Context;
import org.weft.mm.spi.CommModule;
import org.weft.mm.stats.MethodCounters;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The duty cycle (STYLE.md #6, #7). One pass retries back-pressured sends, then polls the modules — cheap ones
 * first, as the table orders them, each at most every {@code <method>_skip_poll}-th pass; each module bounds the
 * work of one poll and rotates over its own links — and returns the work done. A wait repeats passes and
 * hands zero-work passes to an idle strategy; completions on other threads wake parked waiters through
 * {@link Waiters}.
 */
public final class ProgressEngine {
    /** Passes a wait makes before it registers as a waiter and consults its idle strategy (a few microseconds). */
    static final int PASSES_BEFORE_IDLING = 64;

    private final Context context;
    private final PolledModule[] polled;
    private final Waiters waiters;
    private final ThreadLocal<IdleStrategy> idleStrategies;
    private int pass;

    /** A module with its polling period and counters. */
    private record PolledModule(CommModule module, int skipPoll, MethodCounters counters) {
    }

    /** {@code <method>_skip_poll}: poll the method only every N-th pass (the papers' remedy for costly probes). */
    public static Parameter<Integer> skipPoll(String method) {
        return Parameter.integer(method + "_skip_poll", 1, "passes",
                "poll the " + method + " method only every N-th progress pass (1 = every pass)");
    }

    public ProgressEngine(Context context, List<CommModule> modules, Parameters parameters, Waiters waiters,
                          Supplier<IdleStrategy> idleStrategy) {
        this.context = context;
        this.polled = modules.stream()
                .map(m -> new PolledModule(m, Math.max(1, parameters.get(skipPoll(m.name()))),
                        context.counters(m.name())))
                .toArray(PolledModule[]::new);
        this.waiters = waiters;
        this.idleStrategies = ThreadLocal.withInitial(idleStrategy);
    }

    /** One pass: back-pressured sends, then the modules due this pass; returns the work done. */
    public int poll() {
        int work = context.flushBacklog();
        int p = pass++; // racy across threads, harmless: it only spaces out the polls of skipped methods
        for (PolledModule m : polled) {
            if (m.skipPoll == 1 || (p & Integer.MAX_VALUE) % m.skipPoll == 0) {
                int done = m.module.poll();
                m.counters.polled(done);
                work += done;
            }
        }
        return work;
    }

    /** Polls until {@code done}, backing off when a pass finds nothing. */
    public void await(BooleanSupplier done) {
        if (done.getAsBoolean()) {
            return;
        }
        // Most waits of a ping-pong end within a round trip: poll a while before the bookkeeping a long wait needs
        // (this thread's idle strategy, a waiter slot taken and given back with atomics), which a profile of the
        // shm ping-pong showed as a fifth of the waiting loop.
        for (int pass = 0; pass < PASSES_BEFORE_IDLING; pass++) {
            int work = poll();
            if (done.getAsBoolean()) {
                return;
            }
            if (work == 0) {
                Thread.onSpinWait(); // as the idle strategies spin: kind to a sibling hyperthread
            }
        }
        IdleStrategy idle = idleStrategies.get();
        idle.reset();
        int slot = waiters.add(Thread.currentThread());
        try {
            while (true) {
                int work = poll();
                if (done.getAsBoolean()) {
                    return;
                }
                idle.idle(work);
            }
        } finally {
            waiters.remove(slot);
        }
    }
}
