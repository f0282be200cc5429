package org.weft.mm;

import org.weft.mm.select.SelectionPolicy;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.MalformedRsrException;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.stats.MethodCounters;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One process of the job as Nexus saw it: its endpoints with their handler tables, the communication modules it
 * runs, and startpoints to every peer once the business cards have been exchanged. Arriving RSRs from every
 * module come here ({@link #inbound}) and run the addressed endpoint's handler.
 */
public final class Context {
    private final int rank;
    private final int size;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private final Map<String, MethodCounters> counters = new LinkedHashMap<>();
    private final Backlog backlog = new Backlog();
    private final RsrSink inbound = this::deliver;
    private final ForeignPeers foreignPeers = new ForeignPeers();
    private volatile List<CommModule> modules = List.of();
    private volatile Startpoint[] startpoints;
    private volatile DescriptorTable[] tables;
    private volatile int metEndpointId;
    /** A module holds sends back (aggregation): the next wait flushes the modules first ({@link #flushHeld}). */
    private volatile boolean holding;
    /** Hears of a peer whose connection a module lost for good (the point-to-point layer fails what waits on it). */
    private volatile java.util.function.BiConsumer<Integer, String> peerLostListener = (peer, why) -> { };

    /**
     * The most job ranks a job may have, spawned worlds included (a peer's rank is checked against it before its
     * RSRs are delivered; membership itself is proved by the job secret).
     */
    public static final int JOB_RANK_LIMIT = 1 << 14;

    public Context(int rank, int size) {
        this.rank = rank;
        this.size = size;
    }

    /** Records the modules that started, in selection order; RSRs may arrive from now on. */
    public void start(List<CommModule> running) {
        modules = List.copyOf(running);
    }

    public int rank() {
        return rank;
    }

    /** The processes of other jobs this process met through ports. */
    ForeignPeers foreignPeers() {
        return foreignPeers;
    }

    /** The size of this process's world (a spawned world's, in a spawned process). */
    public int size() {
        return size;
    }

    /** One more than the highest job rank this context has a startpoint to (its world's and those it reached). */
    public int knownRanks() {
        Startpoint[] points = startpoints;
        return points == null ? 0 : points.length;
    }

    /** Whether this context has a startpoint to job rank {@code peer}. */
    public boolean knows(int peer) {
        Startpoint[] points = startpoints;
        return points != null && peer >= 0 && peer < points.length && points[peer] != null;
    }

    /** The modules this context runs, in the order selection tries them. */
    public List<CommModule> modules() {
        return modules;
    }

    /** The counters of a method, created on first use (during set-up, before RSRs flow). */
    public synchronized MethodCounters counters(String method) {
        return counters.computeIfAbsent(method, MethodCounters::new);
    }

    /** Counters of every method, in the order they were created. */
    public synchronized List<MethodCounters> allCounters() {
        return List.copyOf(counters.values());
    }

    /** Creates the next endpoint; all endpoints are created before the context meets its peers. */
    public Endpoint createEndpoint() {
        Endpoint endpoint = new Endpoint(endpoints.size());
        endpoints.add(endpoint);
        return endpoint;
    }

    /** This context's descriptor table: one descriptor per running module, in selection order. */
    public DescriptorTable localTable() {
        return new DescriptorTable(modules.stream().map(CommModule::localDescriptor).toList());
    }

    /** Builds a startpoint to endpoint {@code endpointId} of every rank from their descriptor tables. */
    public void meet(DescriptorTable[] tables, int endpointId) {
        meet(tables, 0, endpointId);
    }

    /**
     * Builds a startpoint to endpoint {@code endpointId} of each rank of this process's world, job ranks
     * {@code firstRank ..} (a spawned world's start after the ranks before it), from their descriptor tables.
     */
    public synchronized void meet(DescriptorTable[] tables, int firstRank, int endpointId) {
        SelectionPolicy policy = new SelectionPolicy(modules, module -> counters(module.name()));
        Startpoint[] points = new Startpoint[firstRank + tables.length];
        DescriptorTable[] all = new DescriptorTable[points.length];
        for (int r = 0; r < tables.length; r++) {
            points[firstRank + r] = new Startpoint(firstRank + r, endpointId, tables[r], policy, backlog);
            all[firstRank + r] = tables[r];
        }
        this.tables = all;
        this.metEndpointId = endpointId;
        startpoints = points;
    }

    /**
     * Adds a startpoint to job rank {@code peer} of another world (a spawn's parents or children, the other side
     * of a port), selecting among the modules running now; nothing when it has one already.
     */
    public synchronized void reach(int peer, DescriptorTable table) {
        if (knows(peer)) {
            return;
        }
        Startpoint[] points = startpoints;
        if (peer >= points.length) {
            points = java.util.Arrays.copyOf(points, peer + 1);
            tables = java.util.Arrays.copyOf(tables, peer + 1);
        } else {
            points = points.clone();
        }
        SelectionPolicy policy = new SelectionPolicy(modules, module -> counters(module.name()));
        points[peer] = new Startpoint(peer, metEndpointId, table, policy, backlog);
        tables[peer] = table;
        startpoints = points;
    }

    public Startpoint startpoint(int peer) {
        return startpoints[peer];
    }

    /**
     * Manual selection, as Nexus allowed it: a new startpoint to the same endpoint of {@code peer} as
     * {@link #startpoint}, whose selection is restricted to {@code method}, selected now. It shares the module's
     * communication object with any other startpoint to {@code peer} by that method, and its own back-pressure
     * queue. Used by benchmarks that load one method while timing another.
     *
     * @throws IllegalArgumentException if {@code method} does not run in this context or does not reach
     *                                  {@code peer} (the message says why)
     * @throws IllegalStateException    before this context has met its peers
     */
    public Startpoint startpointVia(int peer, String method) {
        DescriptorTable[] met = tables;
        if (met == null) {
            throw new IllegalStateException("the context has not met its peers yet");
        }
        if (peer < 0 || peer >= met.length || met[peer] == null) {
            throw new IllegalArgumentException("no rank " + peer + " in a job of " + met.length);
        }
        CommModule module = modules.stream().filter(m -> m.name().equals(method)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("method " + method + " does not run here (running: "
                        + modules.stream().map(CommModule::name).toList() + ")"));
        SelectionPolicy only = new SelectionPolicy(List.of(module), m -> counters(m.name()));
        Startpoint startpoint = new Startpoint(peer, metEndpointId, met[peer], only, backlog);
        try {
            startpoint.link();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("method " + method + " does not reach rank " + peer + ": "
                    + e.getMessage(), e);
        }
        return startpoint;
    }

    /** Who hears of a lost peer ({@link #peerLost}): the device's point-to-point layer. */
    public void onPeerLost(java.util.function.BiConsumer<Integer, String> listener) {
        peerLostListener = listener;
    }

    /**
     * A module lost its connection to {@code peer} for good, for reason {@code why} (a line naming the peer): every
     * operation that waits on it fails with that reason, and so does every later one.
     */
    public void peerLost(int peer, String why) {
        peerLostListener.accept(peer, why);
    }

    /** A module holds RSRs back: the next {@link #flushHeld} asks every module to write them. */
    public void markHolding() {
        holding = true;
    }

    /**
     * Before a thread waits (and before finalize's barrier): every module writes what it holds back, so that no
     * message waits in this process while its sender does. One volatile read when nothing is held.
     */
    public void flushHeld() {
        if (holding) {
            holding = false; // before the flushes: a send held meanwhile marks it again
            for (CommModule module : modules) {
                module.flush();
            }
        }
    }

    /**
     * Whether this process sends nothing that needs its progress to go: it writes what modules hold back first
     * ({@link #flushHeld}); then no startpoint waits for a back-pressured method, and no module has bytes it took
     * still to write ({@link CommModule#holdsOutbound}).
     */
    public boolean sendsNothingPending() {
        flushHeld();
        if (!backlog.isEmpty()) {
            return false;
        }
        for (CommModule module : modules) {
            if (module.holdsOutbound()) {
                return false;
            }
        }
        return true;
    }

    /** Retries the RSRs that wait on back-pressured startpoints; returns how many went. */
    public int flushBacklog() {
        return backlog.drain(Startpoint::flush);
    }

    /** The sink modules deliver to: runs the addressed handler (the modules count what they deliver). */
    public RsrSink inbound() {
        return inbound;
    }

    private void deliver(int sourceRank, int endpointId, int handlerId, ByteBuffer body) {
        // Peers may send before this context has met them all (they finished the exchange first): an RSR needs
        // only the endpoint table here; replies, which need startpoints, follow local receives posted later.
        if (sourceRank < 0 || sourceRank >= JOB_RANK_LIMIT) {
            throw new MalformedRsrException("RSR from unknown rank " + sourceRank);
        }
        if (endpointId < 0 || endpointId >= endpoints.size()) {
            throw new MalformedRsrException("RSR for unknown endpoint " + endpointId);
        }
        endpoints.get(endpointId).run(sourceRank, handlerId, body);
    }
}
