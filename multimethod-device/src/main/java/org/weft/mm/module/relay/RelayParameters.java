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
            "bytes a relay holds per direction of each path; a full buffer stops its reading from the sender"
                    + " (back-pressure through TCP) instead of growing");

    public static final Parameter<Integer> SPIN = Parameter.integer("relay_spin", 50, "us",
            "how long a relay polls its connections after forwarding before it sleeps in select (a wake-up costs"
                    + " tens of microseconds); 0: never");

    /** All of the above, in the order {@code weftrun --info} shows them. */
    public static final List<Parameter<?>> ALL = List.of(RELAYS, BUFFER, SPIN);

    private RelayParameters() {
    }
}
