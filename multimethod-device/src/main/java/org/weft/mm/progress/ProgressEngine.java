package org.weft.mm.progress;

import org.weft.adi.DeviceRequest;
import org.weft.adi.idle.IdleStrategy;
import org.weft.adi.param.Parameter;
import org.weft.adi.param.Parameters;
import org.weft.mm.Context;
import org.weft.mm.spi.CommModule;
import org.weft.mm.stats.MethodCounters;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
    /**
     * Passes a wait makes before it registers as a waiter and consults its idle strategy (a few microseconds); none
     * when the host's ranks outnumber its cores ({@link #yieldsFirst}).
     */
    public static final int PASSES_BEFORE_IDLING = 64;
    /**
     * The longest a waiter that does not poll sleeps between looks at its condition: completions, unexpected
     * arrivals (for a waiter on a condition) and the poller's leaving wake it at once; this is a safety net.
     */
    static final long FOLLOWER_PARK_NANOS = 1_000_000;
    /**
     * How long a poller that handed the polling to the thread it woke sleeps before it polls again if that thread
     * has not come back to wait: a few wake-ups' time (20–25 µs each on these VMs), enough for a thread to return to
     * its program, send and wait again, short enough that a thread that went off to compute delays nobody for long.
     */
    static final long HAND_OFF_GRACE_NANOS = 100_000;
    /** The hand-off grace of a poller that never hands off. */
    static final long NO_HAND_OFF = -1;

    /**
     * {@code poll_hand_off}: whether a poller that completes another waiting thread's request hands the polling to
     * that thread and sleeps (see {@link #await}).
     */
    public static final Parameter<String> POLL_HAND_OFF = Parameter.string("poll_hand_off", "auto",
            "when a thread that polls for others completes another waiting thread's request, it sleeps and leaves the"
                    + " polling to that thread: auto (when a rank has fewer than 2 cores), yes or no");

    /**
     * {@code poll_follower_spin}: how long a waiting thread that another thread polls for spins — looks at its
     * request between yields of its core — before it sleeps (while tcp carries a link: {@link #pollsReadSockets}).
     */
    public static final Parameter<Integer> POLL_FOLLOWER_SPIN = Parameter.integer("poll_follower_spin", 200, "us",
            "how long a waiting thread that another thread polls for yields its core between looks at its request"
                    + " before it sleeps, so that a completion within that time costs no wake-up (0 = it sleeps at"
                    + " once); only while tcp carries a link");

    private final Context context;
    /** The modules polled, replaced whole when one starts late ({@link #add}): a pass reads it once. */
    private volatile Polling polling;
    private final Waiters waiters;
    private final long followerParkNanos;
    /** {@link #POLL_FOLLOWER_SPIN} in nanoseconds. */
    private final long followerSpinNanos;
    private final long handOffGraceNanos;
    /** Which waiting thread polls for all waiters now; see {@link #await}. */
    private final PollerToken token = new PollerToken();
    /** Whether the poller hands the polling to a thread whose request it completed; see {@link #await}. */
    private final boolean handOff;
    /**
     * Whether a wait goes to its idle strategy at once, without {@link #PASSES_BEFORE_IDLING} passes first: when the
     * host's ranks outnumber its cores, the rank waited for is likely waiting for this rank's core, and those passes
     * (with the strategy's spins after them) kept it from it (a 4-rank barrier on 2 cores took 3x Open MPI's).
     */
    private final boolean yieldsFirst;
    /** The thread the poller last handed the polling to, until it leaves its wait (it need not wake a successor). */
    private volatile Thread handedTo;
    private final ThreadLocal<IdleStrategy> idleStrategies;
    private int pass;
    /**
     * Bit i set: module i is polled on every pass — it carries a link of this process, or found work within its
     * last {@link #IDLE_AFTER} polls; the others only on every {@link #IDLE_PERIOD}-th pass. One int the pass reads,
     * where deciding module by module (fields of three objects each) cost a waiting loop ~5 of its ~10 ns a pass.
     * Plain: written by whichever thread polls, and a race only shifts when a module idles.
     */
    private int busy;
    private final Parameters parameters;

    /**
     * Empty polls after which a method that carries no link of this process is polled only every
     * {@link #IDLE_PERIOD}-th pass, until a poll finds work again: an unused method (shm beside nativempi, tcp in a
     * one-host job) then costs the waiting loop next to nothing, and the first RSR it brings after a quiet spell
     * waits a few passes more.
     */
    static final int IDLE_AFTER = 1024;
    /** The method whose polls read sockets ({@link #pollsReadSockets}). */
    private static final String SOCKET_METHOD = "tcp";
    static final int IDLE_PERIOD = 16;

    /**
     * The modules with the bits of every module (polled on the {@link #IDLE_PERIOD}-th pass) and of those whose
     * skip_poll is above 1: one immutable object, so that a pass never sees a module's bit without the module.
     */
    private static final class Polling {
        final PolledModule[] polled;
        final int all;
        final int skipping;

        Polling(PolledModule[] polled) {
            if (polled.length > Integer.SIZE) {
                throw new IllegalArgumentException("at most " + Integer.SIZE + " modules, not " + polled.length);
            }
            int skip = 0;
            for (int i = 0; i < polled.length; i++) {
                skip |= polled[i].skipPoll != 1 ? 1 << i : 0;
            }
            this.polled = polled;
            this.all = polled.length == Integer.SIZE ? -1 : (1 << polled.length) - 1;
            this.skipping = skip;
        }
    }

    /**
     * Whether the poller hands off ({@link #POLL_HAND_OFF} {@code value}): {@code auto} when the host has fewer than
     * 2 cores per rank, so that a thread the poller woke would wait for the poller's core.
     */
    public static boolean handsOff(String value, int localRanks, int cores) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> cores < 2 * localRanks;
            case "yes" -> true;
            case "no" -> false;
            default -> throw new IllegalArgumentException("poll_hand_off: '" + value + "' is not auto, yes or no");
        };
    }

    /** A module with its polling period and counters. */
    private static final class PolledModule {
        final CommModule module;
        final int skipPoll;
        final MethodCounters counters;
        /** Consecutive empty polls, up to {@link #IDLE_AFTER} (plain: a race only shifts when it idles). */
        int emptyPolls;

        PolledModule(CommModule module, int skipPoll, MethodCounters counters) {
            this.module = module;
            this.skipPoll = skipPoll;
            this.counters = counters;
        }
    }

    /** {@code <method>_skip_poll}: poll the method only every N-th pass (the papers' remedy for costly probes). */
    public static Parameter<Integer> skipPoll(String method) {
        return Parameter.integer(method + "_skip_poll", 1, "passes",
                "poll the " + method + " method only every N-th progress pass (1 = every pass)");
    }

    public ProgressEngine(Context context, List<CommModule> modules, Parameters parameters, Waiters waiters,
                          Supplier<IdleStrategy> idleStrategy) {
        this(context, modules, parameters, waiters, idleStrategy, false);
    }

    /** As above; {@code handOff}: the poller hands the polling to a thread whose request it completed. */
    public ProgressEngine(Context context, List<CommModule> modules, Parameters parameters, Waiters waiters,
                          Supplier<IdleStrategy> idleStrategy, boolean handOff) {
        this(context, modules, parameters, waiters, idleStrategy, handOff, false);
    }

    /**
     * As above; {@code yieldsFirst}: a wait goes to its idle strategy at once (the host's ranks outnumber its cores:
     * {@link #yieldsFirst(int, int)}).
     */
    public ProgressEngine(Context context, List<CommModule> modules, Parameters parameters, Waiters waiters,
                          Supplier<IdleStrategy> idleStrategy, boolean handOff, boolean yieldsFirst) {
        this(context, modules, parameters, waiters, idleStrategy, FOLLOWER_PARK_NANOS,
                handOff ? HAND_OFF_GRACE_NANOS : NO_HAND_OFF, yieldsFirst);
    }

    /** Whether waits go to their idle strategy at once: the host's {@code localRanks} outnumber its cores. */
    public static boolean yieldsFirst(int localRanks, int cores) {
        return localRanks > cores;
    }

    /**
     * As above, with waiters that do not poll sleeping at most {@code followerParkNanos} between looks, and a poller
     * that hands off sleeping {@code handOffGraceNanos} before it polls again ({@link #NO_HAND_OFF}: it never hands
     * off).
     */
    ProgressEngine(Context context, List<CommModule> modules, Parameters parameters, Waiters waiters,
                   Supplier<IdleStrategy> idleStrategy, long followerParkNanos, long handOffGraceNanos) {
        this(context, modules, parameters, waiters, idleStrategy, followerParkNanos, handOffGraceNanos, false);
    }

    private ProgressEngine(Context context, List<CommModule> modules, Parameters parameters, Waiters waiters,
                           Supplier<IdleStrategy> idleStrategy, long followerParkNanos, long handOffGraceNanos,
                           boolean yieldsFirst) {
        this.yieldsFirst = yieldsFirst;
        this.followerParkNanos = followerParkNanos;
        this.followerSpinNanos = TimeUnit.MICROSECONDS.toNanos(Math.max(0, parameters.get(POLL_FOLLOWER_SPIN)));
        this.handOffGraceNanos = handOffGraceNanos;
        this.handOff = handOffGraceNanos != NO_HAND_OFF;
        this.context = context;
        this.parameters = parameters;
        this.polling = new Polling(modules.stream().map(this::polled).toArray(PolledModule[]::new));
        this.waiters = waiters;
        this.idleStrategies = ThreadLocal.withInitial(idleStrategy);
        this.busy = polling.all;
    }

    private PolledModule polled(CommModule m) {
        return new PolledModule(m, Math.max(1, parameters.get(skipPoll(m.name()))), context.counters(m.name()));
    }

    /**
     * Polls {@code module} too from now on: a method started after the others (tcp, once a world grows to
     * processes the methods running do not reach).
     */
    public synchronized void add(CommModule module) {
        PolledModule[] old = polling.polled;
        PolledModule[] grown = java.util.Arrays.copyOf(old, old.length + 1);
        grown[old.length] = polled(module);
        polling = new Polling(grown);
        busy |= 1 << old.length;
    }

    /**
     * Something a waiter waits for was done by a thread outside the device (a bootstrap answer, a socket's): wakes
     * the threads that wait for a condition, the one sleeping in the doorbells too, at once rather than at their
     * park's timeout.
     */
    public void wakeWatchers() {
        waiters.wakeWatchers();
    }

    /**
     * One pass: back-pressured sends, then the modules due this pass; returns the work done.
     *
     * <p>The first modules are polled from call sites of their own, not from one loop: each site then always sees
     * the same module class and the JIT inlines its poll, where one loop over three or more classes would dispatch
     * through the interface on every pass (measured: with a third module polled, a nativempi ping-pong slowed from
     * 0.44–0.55 to 0.43–1.07 µs).
     */
    public int poll() {
        int work = context.flushBacklog();
        // racy across threads, harmless: it only spaces out skipped and idle methods
        int p = pass++ & Integer.MAX_VALUE;
        Polling s = polling;
        int due = (p & (IDLE_PERIOD - 1)) == 0 ? wakeIdle(s) : busy & s.all;
        if ((due & s.skipping) != 0) {
            due = skipped(s, due, p);
        }
        PolledModule[] m = s.polled;
        if ((due & 1) != 0) {
            work += counted(m[0], 0, m[0].module.poll());
        }
        if ((due & 2) != 0) {
            work += counted(m[1], 1, m[1].module.poll());
        }
        if ((due & 4) != 0) {
            work += counted(m[2], 2, m[2].module.poll());
        }
        if ((due & 8) != 0) {
            work += counted(m[3], 3, m[3].module.poll());
        }
        for (int i = 4; (due >>> i) != 0; i++) {
            if ((due & (1 << i)) != 0) {
                work += counted(m[i], i, m[i].module.poll());
            }
        }
        return work;
    }

    /** Every module is due on this pass; those that gained a link since go back to being polled on every pass. */
    private int wakeIdle(Polling s) {
        int idle = s.all & ~busy;
        for (int i = 0; (idle >>> i) != 0; i++) {
            if ((idle & (1 << i)) != 0 && s.polled[i].counters.isLinked()) {
                busy |= 1 << i;
            }
        }
        return s.all;
    }

    /** {@code due} without the modules whose skip_poll leaves out pass {@code p}. */
    private int skipped(Polling s, int due, int p) {
        for (int i = 0; ((due & s.skipping) >>> i) != 0; i++) {
            if ((s.skipping & (1 << i)) != 0 && p % s.polled[i].skipPoll != 0) {
                due &= ~(1 << i);
            }
        }
        return due;
    }

    /**
     * Counts a poll of module {@code i} that did {@code work}; returns it. A module idle for {@link #IDLE_AFTER}
     * polls without a link of this process leaves {@link #busy}; one that finds work joins it again.
     */
    private int counted(PolledModule pm, int i, int work) {
        pm.counters.polled(work);
        if (work > 0) {
            pm.emptyPolls = 0;
            if ((busy & (1 << i)) == 0) {
                busy |= 1 << i;
            }
        } else if (pm.emptyPolls < IDLE_AFTER && ++pm.emptyPolls == IDLE_AFTER && !pm.counters.isLinked()) {
            busy &= ~(1 << i);
        }
        return work;
    }

    /**
     * Polls until {@code done}, backing off when a pass finds nothing; with other threads waiting too, only one of
     * them polls at a time (the holder of the {@link PollerToken}) and the others sleep until a completion or the
     * poller's leaving wakes them.
     *
     * <p>Why one poller: every waiting thread polling on its own made {@code THREAD_MULTIPLE} collapse (issue 20: 4
     * threads of round trips over tcp took up to 56 times as long as one doing them all). A tcp poll reads sockets (a
     * system call each); the dedicated-core back-off spins 20 000 passes, 10–20 ms of tcp polls, before
     * it yields; so with more waiting threads than cores the threads that had work to do — send the reply their
     * receive was waiting for — waited for a core behind pollers that found nothing (and each other's try-locks).
     * One poller per process keeps a ping-pong's cores as a single thread has them; the others need a wake-up per
     * completion, which several messages in flight overlap. (Open MPI's {@code wait_sync} does the same.)
     *
     * <p>Hand-off: when the poller completes the request of another waiting thread, that thread needs a core to run
     * its program, and a poller that goes on spinning takes it (2 threads of round trips over tcp were 16–33 times
     * slower than one). With {@code handOff} the poller therefore stops and sleeps, and the thread it woke polls when
     * it next waits — as a one-threaded program's does; if it has not come back within {@link #HAND_OFF_GRACE_NANOS},
     * the old poller polls again. Each message then costs one switch between threads of the process, not a switch
     * plus a fight for the core.
     */
    public void await(BooleanSupplier done) {
        await(done, false);
    }

    /**
     * As {@link #await(BooleanSupplier)}, for an internal thread that waits all the time (a window's service
     * thread): it polls only while no other thread waits, and gives way to any that starts (see {@link PollerToken}).
     */
    public void awaitInBackground(BooleanSupplier done) {
        await(done, true);
    }

    private void await(BooleanSupplier done, boolean inBackground) {
        // A blocking call flushes what aggregation holds, even when it need not wait: no message stays held while
        // its sender waits (what it waits for may be the peer's answer to it), and a blocking send goes now.
        context.flushHeld();
        if (done.getAsBoolean()) {
            return;
        }
        // Most waits of a ping-pong end within a round trip: poll a while before the bookkeeping a long wait needs
        // (this thread's idle strategy, a waiter slot taken and given back with atomics), which a profile of the
        // shm ping-pong showed as a fifth of the waiting loop. Not while another thread polls: it does it for all.
        // Nor while other threads spin (they may share this thread's core and need it once this thread polls), nor
        // when ranks outnumber cores (the rank this one waits for may need its core).
        int passes = waiters.spinners() == 0 && !yieldsFirst ? PASSES_BEFORE_IDLING : 0;
        for (int pass = 0; pass < passes && token.open(); pass++) {
            poll(); // no pause between these passes: a pause instruction (~40 ns on recent x86) delays the arrival
            context.flushHeld(); // what the pass sent (an answer to what it delivered) goes now, not after a window
            if (done.getAsBoolean()) {
                return;
            }
        }
        Thread self = Thread.currentThread();
        boolean watching = !(done instanceof DeviceRequest); // a condition, not one request: may need an arrival
        int slot = waiters.add(self, watching ? null : done);
        boolean spun = false;
        try {
            while (!done.getAsBoolean()) {
                if (!token.take(self, inBackground)) {
                    // spins once a wait: a thread that has slept its spin out waits long, and sleeps from then on
                    if (spun || !spinWhileFollowing(done, slot)) {
                        LockSupport.parkNanos(followerParkNanos);
                    }
                    spun = true;
                    continue;
                }
                int outcome = pollHoldingToken(done, self);
                if (outcome == DONE) {
                    return;
                }
                if (outcome == HANDED_OFF) {
                    Thread next = handedTo;
                    if (next != null) {
                        // it may have come back to wait while this thread still held the token, and sleeps
                        LockSupport.unpark(next);
                    }
                    LockSupport.parkNanos(handOffGraceNanos); // polls again unless the thread it woke came back
                }
                // else a background waiter gave way: it sleeps until the newcomer leaves and wakes it
            }
        } finally {
            waiters.remove(slot, watching);
            leave(self);
        }
    }

    /**
     * While another thread polls: yields this thread's core, looking at {@code done} and the token between yields,
     * for up to {@link #followerSpinNanos}; true when {@code done} or the token came free meanwhile, false when the
     * caller should sleep (it then registers as a sleeper again and has looked once more).
     *
     * <p>Why spin: the poller that completes this thread's request would otherwise wake it from a sleep, and on
     * this VM a wake-up on the other vCPU costs 18–21 µs; every message for another thread paid it (2 threads of tcp
     * round trips 5.6–8.2× slower than one). A spinning thread that yields is runnable: when its request completes
     * it runs as soon as the thread on its core yields, 1.6–1.9 µs (docs/performance.md, "2026-11-26, fourth"). The
     * spin is bounded in time, so a thread that waits long, or finds its core taken by other processes, soon sleeps.
     */
    private boolean spinWhileFollowing(BooleanSupplier done, int slot) {
        if (followerSpinNanos <= 0 || slot < 0 || !pollsReadSockets()) {
            return false;
        }
        long start = System.nanoTime();
        waiters.spinning(slot);
        do {
            Thread.yield();
            if (done.getAsBoolean()) {
                // it stays a spinner until it leaves its slot: a completer racing with its leaving never takes it
                // for a sleeper to wake and hand the polling to
                return true;
            }
            if (token.isFree()) {
                waiters.mayPark(slot); // it goes to poll, and may sleep after
                return true;
            }
        } while (System.nanoTime() - start < followerSpinNanos);
        waiters.mayPark(slot);
        return done.getAsBoolean() || token.isFree(); // a completion or leaving that saw this thread still spinning
    }

    /**
     * Whether a poll reads sockets of this process (tcp carries a link): waits are then long against a switch
     * between threads, and a poll is a system call per connection. Over shm alone a waiting thread finds its message
     * in its fast passes nearly always, and spinning followers only took the cores from the threads that poll: 2
     * threads' shm round trips took 1.9 times as long with them.
     */
    private boolean pollsReadSockets() {
        for (PolledModule pm : polling.polled) {
            if (pm.module.name().equals(SOCKET_METHOD) && pm.counters.isLinked()) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code self}'s wait ended: if nobody polls now, wakes a waiter to poll — unless a poller handed the polling to
     * {@code self} and sleeps only briefly, expecting it back (waking one then would cost the switch the hand-off
     * saves).
     */
    private void leave(Thread self) {
        if (handedTo == self) {
            handedTo = null;
        } else if (token.isFree() && waiters.spinners() == 0) { // a spinning waiter takes the token by itself
            waiters.wakeOne(); // someone else polls now (the poller's leaving, or one it woke and that is done)
        }
    }

    /** {@link #pollUntil}, by {@code self}, which has just taken the token; gives it back. */
    private int pollHoldingToken(BooleanSupplier done, Thread self) {
        if (handedTo != null) {
            handedTo = null; // whoever it was for, this thread polls now
        }
        try {
            return pollUntil(done, self);
        } finally {
            token.release(self);
        }
    }

    /** How {@link #pollUntil} ended. */
    private static final int DONE = 0;
    private static final int GAVE_WAY = 1;
    private static final int HANDED_OFF = 2;

    /**
     * The poller's loop: polls until {@code done} ({@link #DONE}), until a thread that started waiting took the
     * token from this background poller ({@link #GAVE_WAY}), or, with {@link #handOff}, until a pass completed
     * another waiting thread's request ({@link #HANDED_OFF}); hands zero-work passes to this thread's idle strategy.
     */
    private int pollUntil(BooleanSupplier done, Thread self) {
        IdleStrategy idle = idleStrategies.get();
        idle.reset();
        while (true) {
            long handOffs = waiters.handOffs();
            int work = poll();
            context.flushHeld();
            if (done.getAsBoolean()) {
                return DONE;
            }
            if (!token.heldBy(self)) {
                return GAVE_WAY;
            }
            if (handOff && waiters.handOffs() != handOffs) {
                handedTo = waiters.lastWoken();
                return HANDED_OFF;
            }
            if (waiters.spinners() != 0) {
                Thread.yield(); // a spinning waiter whose request this pass completed may need this core to go on
            } else {
                idle.idle(work, done);
            }
        }
    }
}
