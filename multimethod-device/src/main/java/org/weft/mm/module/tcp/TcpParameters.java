package org.weft.mm.module.tcp;

import java.util.List;
import org.weft.adi.param.Parameter;

/** Every tunable of the {@code tcp} module, declared once; the launcher lists {@link #ALL}. */
public final class TcpParameters {
    /** The value of {@link #IF_ADDRESS} that lets the module choose. */
    public static final String AUTO = "auto";

    /**
     * The addresses peers are told to dial (comma-separated), which the server listens on (on the wildcard address
     * when one is not a literal address of this host: a name, or an address forwarded here). {@code auto}:
     * {@code 127.0.0.1} when the whole job runs on this host, else every non-loopback IPv4 address of this host
     * (peers dial one on their own subnet first).
     */
    public static final Parameter<String> IF_ADDRESS = Parameter.string("tcp_if_address", AUTO,
            "addresses advertised to peers in the tcp descriptor and listened on, comma-separated; auto: 127.0.0.1"
                    + " in a one-host job, else this host's non-loopback IPv4 addresses (any name or address not of"
                    + " this host: the server listens on the wildcard address)");

    public static final Parameter<Long> SNDBUF = Parameter.bytes("tcp_sndbuf", 0,
            "SO_SNDBUF of tcp sockets; 0 keeps the OS default (autotuning)");

    public static final Parameter<Long> RCVBUF = Parameter.bytes("tcp_rcvbuf", 0,
            "SO_RCVBUF of tcp sockets; 0 keeps the OS default (autotuning)");

    public static final Parameter<Long> EAGER_LIMIT = Parameter.bytes("tcp_eager_limit", 64 * 1024,
            "largest payload sent eagerly with its envelope over tcp; larger ones use rendezvous");

    public static final Parameter<Long> MAX_FRAME = Parameter.bytes("tcp_max_frame", (1L << 30) + 64 * 1024,
            "largest tcp frame accepted (length field included); a longer one closes the connection");

    public static final Parameter<Integer> HANDSHAKE_TIMEOUT = Parameter.integer("tcp_handshake_timeout", 5000,
            "ms", "time an accepted tcp connection has to present a valid HELLO before it is closed");

    public static final Parameter<Integer> CONNECT_TIMEOUT = Parameter.integer("tcp_connect_timeout", 10000,
            "ms", "time one address of a peer has to answer a dial before the next is tried (the link is dead when"
                    + " none is left)");

    public static final Parameter<Long> SEND_QUEUE = Parameter.bytes("tcp_send_queue", 4L << 20,
            "bytes queued for one peer (socket full) beyond which sends wait in the device's per-peer queue"
                    + " (back-pressure) instead of growing the tcp queue");

    /** All of the above, in the order {@code weftrun --info} shows them. */
    public static final List<Parameter<?>> ALL = List.of(IF_ADDRESS, SNDBUF, RCVBUF, EAGER_LIMIT, MAX_FRAME,
            HANDSHAKE_TIMEOUT, CONNECT_TIMEOUT, SEND_QUEUE);

    private TcpParameters() {
    }
}
