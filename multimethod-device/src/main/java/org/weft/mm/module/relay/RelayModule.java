package org.weft.mm.module.relay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.tcp.TcpModule;
import org.weft.mm.module.tcp.TcpParameters;
import org.weft.mm.module.tcp.TcpRoute;
import org.weft.mm.module.tcp.TcpRoutes;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.Doorbell;
import org.weft.mm.spi.ModuleContext;

/**
 * The {@code relay} method: a rank's descriptor says "reach me through relay R" (the relay of its site, which
 * {@code weftrun --relay SITE=HOST} started), and a link is a tcp link whose connection goes to a relay instead of
 * the peer, with a {@link RelayRequest} in front of the HELLO. Everything after the request is tcp's own bytes,
 * end to end between the ranks (HELLO, frames; later whatever encrypts them), which the relays forward without
 * reading; so ordering, back-pressure and proof of membership are tcp's.
 *
 * <p>Routes: a rank with a relay of its own dials it, naming the peer's relay as the next hop when that is another
 * (two hops: MPWide's forwarder on each side); a rank without one dials the peer's relay (one hop). The last relay
 * asks the peer, over the connection the peer registered with at init, to dial back (a reverse connection: a rank
 * behind a relay accepts nothing from outside), and joins the two connections. In the default order the relay
 * comes after tcp: a peer is reached through relays only when direct tcp cannot connect to it
 * ({@link CommObject#unreachableBecause()}), or when the user puts {@code relay} first.
 */
public final class RelayModule implements CommModule {
    public static final String NAME = "relay";

    private final Consumer<String> logSink;
    /** How each peer this rank dialled is reached, for the report: {@code through relay a (...) and relay b (...)}. */
    private final Map<Integer, String> routes = new ConcurrentHashMap<>();
    private ModuleContext context;
    private TcpModule connections;
    /** The relay of this rank's site, or {@code null} when its site has none. */
    private RelayAddress mine;
    private RelayControl control;

    public RelayModule() {
        this(System.err::println);
    }

    /** A module that hands its one-line reports to {@code logSink} (tests capture them). */
    public RelayModule(Consumer<String> logSink) {
        this.logSink = logSink;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Like tcp, a fallback: only when the methods before it leave ranks unconnected. */
    @Override
    public boolean startsOnDemand() {
        return true;
    }

    @Override
    public String unavailabilityCause(ModuleContext context) {
        try {
            if (RelayAddress.parseAll(context.parameters().get(RelayParameters.RELAYS)).isEmpty()) {
                return "no relay in this job (weftrun --relay SITE=HOST)";
            }
        } catch (IllegalArgumentException e) {
            return "parameter " + RelayParameters.RELAYS.name() + ": " + e.getMessage();
        }
        return new TcpModule(NAME, logSink, TcpRoutes.DIRECT).unavailabilityCause(context);
    }

    @Override
    public void init(ModuleContext context) throws Exception {
        this.context = context;
        this.mine = RelayAddress.parseAll(context.parameters().get(RelayParameters.RELAYS)).get(context.site());
        this.connections = new TcpModule(NAME, logSink, new TcpRoutes() {
            @Override
            public TcpRoute route(int peerRank, Descriptor remote) {
                return RelayModule.this.route(peerRank, remote);
            }

            @Override
            public boolean listens() {
                return false;
            }
        });
        connections.init(context);
        if (mine != null) {
            try {
                control = RelayControl.register(mine, context, connections,
                        line -> logSink.accept("weft relay (rank " + context.rank() + "): " + line),
                        connectTimeout(context.parameters()));
            } catch (Exception e) {
                connections.shutdown();
                throw e;
            }
        }
    }

    private static int connectTimeout(Parameters parameters) {
        return parameters.get(TcpParameters.CONNECT_TIMEOUT);
    }

    /** Through this rank's relay when it has one (and on to the peer's), else straight to the peer's relay. */
    private TcpRoute route(int peerRank, Descriptor remote) {
        if (!NAME.equals(remote.method())) {
            return null;
        }
        RelayAddress theirs = RelayAddress.ofDescriptorData(remote.data());
        if (theirs == null) {
            return null; // no relay reaches the peer
        }
        boolean twoHops = mine != null && !mine.equals(theirs);
        RelayAddress first = mine != null ? mine : theirs;
        String via = "through " + first.describe() + (twoHops ? " and " + theirs.describe() : "");
        String next = twoHops ? theirs.toString() : "";
        routes.put(peerRank, via);
        return new TcpRoute(first.address(), () -> RelayRequest.signed(RelayRequest.Kind.CONNECT, context.rank(),
                peerRank, 0, context.jobId(), next, context.secret()).encode(), via);
    }

    /**
     * What the tcp machinery says of its connections (TLS, the paths' frame policies and stripes), then one line per
     * peer this rank dialled through relays: the relays in order and how many hops ({@code --report}; the bytes they
     * carried are the method's in the counters' table).
     */
    @Override
    public List<String> reportLines() {
        List<String> lines = new ArrayList<>(connections == null ? List.of() : connections.reportLines());
        new TreeMap<>(routes).forEach((peer, via) -> lines.add("relay to rank " + peer + " " + via + " ("
                + (via.contains(" and ") ? 2 : 1) + (via.contains(" and ") ? " hops)" : " hop)")));
        return lines;
    }

    /** How this rank reaches {@code peerRank} by relays ({@code through relay a (...) and relay b (...)}), or null. */
    public String routeTo(int peerRank) {
        return routes.get(peerRank);
    }

    @Override
    public Descriptor localDescriptor() {
        return new Descriptor(NAME, mine == null ? new byte[0] : mine.toDescriptorData());
    }

    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        return connections.connect(peerRank, remote);
    }

    /** Two ranks that both have a relay meet through relays (each dials its own, which passes it on). */
    @Override
    public boolean connects(int rankA, Descriptor a, int rankB, Descriptor b) {
        return rankA != rankB && a.data().length > 0 && b.data().length > 0;
    }

    @Override
    public long eagerLimit() {
        return connections.eagerLimit();
    }

    @Override
    public long maxRsrLength() {
        return connections.maxRsrLength();
    }

    @Override
    public Doorbell doorbell() {
        return connections.doorbell();
    }

    @Override
    public int poll() {
        return connections.poll();
    }

    @Override
    public boolean holdsOutbound() {
        return connections != null && connections.holdsOutbound();
    }

    /** A thread is about to wait: what the links hold back (aggregation) goes now, as tcp's does. */
    @Override
    public void flush() {
        if (connections != null) {
            connections.flush();
        }
    }

    @Override
    public void shutdown() {
        if (control != null) {
            control.close();
        }
        if (connections != null) {
            connections.shutdown();
        }
    }
}
