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

    public static final Parameter<Integer> LOST_PEER_WAIT = Parameter.integer("tcp_lost_peer_wait", 3000, "ms",
            "after a connection to a peer is lost (reset, closed without a goodbye, garbled), time the launcher has"
                    + " to end the job for a rank that died (naming it) before the operations waiting on that peer"
                    + " fail here");

    public static final Parameter<Long> SEND_QUEUE = Parameter.bytes("tcp_send_queue", 4L << 20,
            "bytes queued for one peer (socket full) beyond which sends wait in the device's per-peer queue"
                    + " (back-pressure) instead of growing the tcp queue");

    public static final Parameter<String> AGGREGATE = Parameter.string("tcp_aggregate",
            "cross-site:adaptive,same-site:off",
            "coalescing of small RSRs to one peer into one write (message aggregation), per path: off, fixed or"
                    + " adaptive, or SCOPE:POLICY,... with SCOPE same-site, cross-site, all or SITE-SITE; a wait"
                    + " always writes what is held first");

    public static final Parameter<Integer> AGGREGATE_WINDOW = Parameter.integer("tcp_aggregate_window", 1000, "us",
            "longest an aggregated RSR waits for others before it is written (fixed and adaptive)");

    public static final Parameter<Integer> AGGREGATE_COUNT = Parameter.integer("tcp_aggregate_count", 64, "RSRs",
            "RSRs one aggregate holds at most; the one that fills it writes it");

    public static final Parameter<Long> AGGREGATE_BYTES = Parameter.bytes("tcp_aggregate_bytes", 32 * 1024,
            "bytes one aggregate holds at most; a larger RSR ends the aggregate and goes at once");

    public static final Parameter<Integer> AGGREGATE_FRAME_COST = Parameter.integer("tcp_aggregate_frame_cost", 1000,
            "us", "adaptive aggregation, until the path's round trip is measured: the delay, summed over the held RSRs,"
            + " that one write saved is worth");

    public static final Parameter<String> COMPRESS = Parameter.string("tcp_compress", "cross-site:auto,same-site:off",
            "compression of RSR frames, per path: off, lz4 or auto (lz4 where the link finds its wire slower than"
                    + " the compressor and the data compressible), or SCOPE:CODEC,... with SCOPE same-site,"
                    + " cross-site, all or SITE-SITE; data whose first 4 KiB do not compress goes raw");

    public static final Parameter<Long> COMPRESS_MIN = Parameter.bytes("tcp_compress_min", 4096,
            "smallest RSR frame a compressing path tries to compress");

    /**
     * Which tcp connections are TLS 1.3 ({@link org.weft.mm.tls.TlsPolicy}): {@code cross-site} those between ranks
     * of different sites, {@code all}, {@code none}.
     */
    public static final Parameter<String> TLS = Parameter.string("tcp_tls", "cross-site",
            "which tcp connections are encrypted and authenticated with TLS 1.3 (keys and certificates derived from"
                    + " the job's secret): cross-site (links between ranks of different sites), all, none");

    public static final Parameter<String> PATH_DEFAULTS = Parameter.string("tcp_path_defaults", "streams=auto",
            "settings of every wide-area path (between two sites): streams=auto|N (parallel TCP streams a large"
                    + " message is striped over; auto: chosen per message size from the path's measurement),"
                    + " max=N (auto's limit, 32), chunk=BYTES (256k), window=BYTES (socket buffers of a stream;"
                    + " 0: the OS's), pacing=RATE (e.g. 300mbit; 0: none), min=BYTES (smallest message striped,"
                    + " 1m)");

    public static final Parameter<String> PATHS = Parameter.string("tcp_paths", "",
            "per pair of sites, settings over tcp_path_defaults: 'a:b streams=16,window=8m;a:c pacing=1gbit'"
                    + " (weftrun --path a:b streams=16 sets it; * is any site)");

    public static final Parameter<String> PATH_FILE = Parameter.string("tcp_path_file", "",
            "a file of lines 'SITE:SITE key=value,...' (# comments), read before tcp_paths");

    /** All of the above, in the order {@code weftrun --info} shows them. */
    public static final List<Parameter<?>> ALL = List.of(IF_ADDRESS, SNDBUF, RCVBUF, EAGER_LIMIT, MAX_FRAME,
            HANDSHAKE_TIMEOUT, CONNECT_TIMEOUT, LOST_PEER_WAIT, SEND_QUEUE, AGGREGATE, AGGREGATE_WINDOW,
            AGGREGATE_COUNT, AGGREGATE_BYTES, AGGREGATE_FRAME_COST, COMPRESS, COMPRESS_MIN, TLS, PATH_DEFAULTS, PATHS,
            PATH_FILE);

    /** Throws {@link IllegalArgumentException} saying what is wrong with a {@link #PATHS} value. */
    public static void checkPaths(String paths) {
        PathTable.of(PATH_DEFAULTS.defaultValue(), "", paths);
    }

    private TcpParameters() {
    }
}
