package org.weft.mm.module.relay;

import java.util.List;
import org.weft.adi.param.Parameter;

/**
 * The {@code relay} method's parameters. Its connections are tcp's, through relays, so the {@code tcp_*} parameters
 * (eager limit, frame size, send queue, socket buffers, timeouts) apply to them too.
 */
public final class RelayParameters {
    /** Set by {@code weftrun} for the relays it started ({@code --relay SITE=HOST}); the method is off without. */
    public static final Parameter<String> RELAYS = Parameter.string("relays", "",
            "the job's relays, SITE@HOSTS:PORT separated by ';' (weftrun sets it for --relay SITE=HOST); ranks of a"
                    + " site with a relay are reached through it when direct tcp cannot connect");

    public static final Parameter<Long> BUFFER = Parameter.bytes("relay_buffer", 512 * 1024,
            "bytes a relay holds per direction of each path (at least 16 KiB); a full buffer stops its reading from"
                    + " the sender (back-pressure through TCP) instead of growing");

    /** The value of {@link #SPIN} that lets the relay choose by its host's cores ({@link #spinMicros}). */
    public static final int SPIN_AUTO = -1;

    /** What {@link #SPIN_AUTO} chooses on a host with {@link #SPIN_MIN_CORES} cores or more. */
    public static final int SPIN_WITH_CORES_TO_SPARE = 50;

    /** The fewest cores on which {@link #SPIN_AUTO} spins: two busy ranks, the relay, and one for the rest. */
    public static final int SPIN_MIN_CORES = 4;

    public static final Parameter<Integer> SPIN = Parameter.integer("relay_spin", SPIN_AUTO, "us",
            "how long a relay polls its connections after forwarding before it sleeps in select (saves a wake-up when"
                    + " it has a core of its own); 0: never; -1: 50 on a host with 4 cores or more, else 0 (on fewer"
                    + " cores the spinning relay holds the core that the rank it forwards to needs)");

    /** All of the above, in the order {@code weftrun --info} shows them. */
    public static final List<Parameter<?>> ALL = List.of(RELAYS, BUFFER, SPIN);

    private RelayParameters() {
    }

    /**
     * The spin a relay uses: {@code configured} microseconds, or for {@link #SPIN_AUTO} a choice by the
     * {@code cores} of its host. On two cores with two ranks busy-polling (a job on one host), a relay that polls
     * after each forward keeps a core that the receiving rank must get before it can answer, and the kernel gives
     * the woken relay a core sooner when it has used little CPU. Measured on 2 cores under load (median single
     * 0-byte one-way, rounds the load left alone): the relay added 37 µs with 50 µs of spin, 20 µs without
     * (docs/performance.md).
     */
    public static int spinMicros(int configured, int cores) {
        if (configured != SPIN_AUTO) {
            return Math.max(0, configured);
        }
        return cores >= SPIN_MIN_CORES ? SPIN_WITH_CORES_TO_SPARE : 0;
    }
}
