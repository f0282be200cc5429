package phold;

import java.util.TreeSet;

/**
 * The PHOLD model: {@code lps} logical processes, each starting with {@code population} events of its own; an event
 * changes its LP's state and schedules one new event, {@code lookahead} plus an exponential delay of mean
 * {@code mean} later, for a random LP (any LP with probability {@code remote}, else the same one). Everything random
 * comes from the LP's own generator (splitmix64, its state one long), so an LP's history depends only on the events
 * it processes, in (ts, src, seq) order: a rollback restores it exactly, and the sequential run here reproduces it.
 */
record Model(int lps, int population, long endTime, long lookahead, long mean, double remote, long seed, int work) {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /** An LP's state: its value, its generator and how many events it has scheduled. */
    static final class Lp {
        long value;
        long rng;
        int seq;
    }

    Lp initial(int lp) {
        Lp state = new Lp();
        state.value = mix(seed ^ (lp * GOLDEN));
        state.rng = mix(state.value + lp);
        return state;
    }

    /** The initial events of {@code lp}, drawn from its generator (which they advance). */
    Event[] initialEvents(int lp, Lp state) {
        Event[] events = new Event[population];
        for (int i = 0; i < population; i++) {
            events[i] = new Event(lookahead + exponential(state), lp, lp, state.seq++);
        }
        return events;
    }

    /** Processes {@code e} at its LP, whose state is {@code state}: updates it and returns the event it schedules. */
    Event process(Event e, Lp state) {
        long value = mix(state.value ^ e.ts() * 31 ^ ((long) e.src() << 32 | e.seq()));
        for (int i = 0; i < work; i++) {
            value = mix(value);
        }
        state.value = value;
        boolean far = uniform(state) < remote;
        int dst = far ? (int) Math.floorMod(next(state), (long) lps) : e.dst();
        long delay = lookahead + exponential(state);
        return new Event(e.ts() + delay, dst, e.dst(), state.seq++);
    }

    /** A final state's share of the checksum: summed (wrapping) over all LPs, so any partition gives the same. */
    static long checksumOf(int lp, Lp state) {
        return mix(state.value ^ (lp * GOLDEN) ^ state.seq);
    }

    /** The reference: all LPs in one process, events in order until {@code endTime}; {committed, checksum}. */
    long[] runSequentially() {
        Lp[] states = new Lp[lps];
        TreeSet<Event> pending = new TreeSet<>();
        for (int lp = 0; lp < lps; lp++) {
            states[lp] = initial(lp);
            pending.addAll(java.util.List.of(initialEvents(lp, states[lp])));
        }
        long committed = 0;
        while (!pending.isEmpty() && pending.first().ts() < endTime) {
            Event e = pending.pollFirst();
            pending.add(process(e, states[e.dst()]));
            committed++;
        }
        long checksum = 0;
        for (int lp = 0; lp < lps; lp++) {
            checksum += checksumOf(lp, states[lp]);
        }
        return new long[] {committed, checksum};
    }

    private long exponential(Lp state) {
        return (long) (-mean * Math.log(1.0 - uniform(state)));
    }

    private static double uniform(Lp state) {
        return (next(state) >>> 11) * 0x1.0p-53;
    }

    private static long next(Lp state) {
        state.rng += GOLDEN;
        return mix(state.rng);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
