package org.weft.launcher.bootstrap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.weft.adi.bootstrap.BootstrapProtocol;
import org.weft.adi.net.HostAddresses;

/**
 * The bootstrap (rendezvous) service of one job: ranks connect, prove the job secret, register, and then
 * exchange business cards ({@code allGather}), meet at the finalize barrier, abort, and leave. The wire format is
 * {@link BootstrapProtocol}; the client is {@link org.weft.adi.bootstrap.SocketBootstrap}.
 *
 * <p>The service listens where it tells ranks to connect ({@link #address()}), nowhere else: on {@code 127.0.0.1}
 * for a job on this host only, on each non-loopback IPv4 address of this host (a port each) for a job with ranks
 * on other hosts: a rank tries those on its own subnets first, and a rank whose launcher is not on loopback knows
 * the job spans hosts.
 *
 * <p>It never decides the job's fate itself: it reports what it sees to a listener ({@link BootstrapEvent}) and
 * the launcher answers with {@link #endJob}. Connections that fail the proof are dropped and reported once as
 * {@link BootstrapEvent.Refused}; they never touch the job's state.
 */
public final class BootstrapServer implements AutoCloseable {
    private static final int BACKLOG = 128;

    private final int size;
    private final String secret;
    private final Consumer<BootstrapEvent> listener;
    /** One per address listened on; the first is loopback's in a job on this host only. */
    private final List<ServerSocket> serverSockets = new ArrayList<>();
    /** The connection of each job rank that registered, by rank (spawned worlds add ranks). */
    private final List<RankConnection> ranks = new ArrayList<>();
    private final Worlds worlds;
    private final CardRegistry cards = new CardRegistry();
    private final LauncherRequestHandler requests;
    private final List<RankConnection> all = new ArrayList<>();
    private volatile boolean closed;
    private volatile byte[] jobEnd;

    private BootstrapServer(int size, String secret, Consumer<BootstrapEvent> listener) {
        this.size = size;
        this.secret = secret;
        this.listener = listener;
        this.worlds = new Worlds(size);
        this.requests = new LauncherRequestHandler(worlds, cards);
    }

    /** Starts a service for a job of {@code size} ranks on this host whose events nobody watches. */
    public static BootstrapServer start(int size, String secret) throws IOException {
        return start(size, secret, event -> { });
    }

    /** Starts a service for a job of {@code size} ranks on this host only (see the method below). */
    public static BootstrapServer start(int size, String secret, Consumer<BootstrapEvent> listener)
            throws IOException {
        return start(size, secret, listener, false);
    }

    /**
     * Starts a service for a job of {@code size} ranks sharing {@code secret}.
     *
     * @param listener          told of every {@link BootstrapEvent}, on the service's threads
     * @param ranksOnOtherHosts whether some rank runs on another host: the service then listens on this host's
     *                          network addresses instead of loopback
     * @throws IOException when it cannot listen, or ranks run elsewhere and this host has no address but loopback
     */
    public static BootstrapServer start(int size, String secret, Consumer<BootstrapEvent> listener,
                                        boolean ranksOnOtherHosts) throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank, not " + size);
        }
        List<InetAddress> addresses = new ArrayList<>();
        if (!ranksOnOtherHosts) {
            addresses.add(InetAddress.getByAddress(new byte[] {127, 0, 0, 1})); // IPv4 whatever Java prefers
        } else {
            for (String address : HostAddresses.nonLoopback()) {
                addresses.add(InetAddress.getByName(address)); // a literal: no name service asked
            }
            if (addresses.isEmpty()) {
                throw new IOException("ranks run on other hosts, but this host has no network address but loopback");
            }
        }
        BootstrapServer server = new BootstrapServer(size, secret, listener);
        try {
            for (InetAddress address : addresses) {
                ServerSocket socket = new ServerSocket();
                server.serverSockets.add(socket);
                socket.bind(new InetSocketAddress(address, 0), BACKLOG);
            }
        } catch (IOException e) {
            server.close();
            throw e;
        }
        for (ServerSocket socket : server.serverSockets) {
            Thread acceptor = new Thread(() -> server.acceptLoop(socket), "weft-bootstrap-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }
        return server;
    }

    /**
     * The value of {@code WEFT_BOOTSTRAP}: {@code host:port} of each address the service listens on,
     * comma-separated ({@code 127.0.0.1:port} for a job on this host only).
     */
    public String address() {
        return String.join(",", serverSockets.stream()
                .map(s -> s.getInetAddress().getHostAddress() + ":" + s.getLocalPort()).toList());
    }

    /** The port of the first address listened on. */
    public int port() {
        return serverSockets.getFirst().getLocalPort();
    }

    public int size() {
        return size;
    }

    String secret() {
        return secret;
    }

    boolean isClosed() {
        return closed;
    }

    private void acceptLoop(ServerSocket serverSocket) {
        while (!closed) {
            try {
                Socket socket = serverSocket.accept();
                RankConnection connection = new RankConnection(this, socket);
                synchronized (this) {
                    if (closed) {
                        connection.closeQuietly();
                        return;
                    }
                    all.add(connection);
                }
                Thread.ofVirtual().name("weft-bootstrap-conn").start(connection);
            } catch (IOException e) {
                if (!closed) {
                    // accept failures on a live socket are transient (e.g. out of file descriptors): back off
                    sleepQuietly(100);
                }
            }
        }
    }

    synchronized void forget(RankConnection connection) {
        all.remove(connection);
    }

    /**
     * Why {@code rank} of a world of {@code size} cannot register, or {@code null} when it may: the job must have
     * that rank (the first world's, or a spawned world's) in a world of that size.
     */
    String refusal(int rank, int size) {
        Worlds.World world = worlds.of(rank);
        if (world == null) {
            return "claims rank " + rank + " of a job of " + worlds.ranks();
        }
        if (world.size() != size) {
            return "claims a world of " + size + " ranks, rank " + rank + "'s has " + world.size();
        }
        return null;
    }

    /** Claims {@code rank} for this connection; false if another connection has it. */
    synchronized boolean register(int rank, RankConnection connection) {
        while (ranks.size() <= rank) {
            ranks.add(null);
        }
        if (ranks.get(rank) != null) {
            return false;
        }
        ranks.set(rank, connection);
        return true;
    }

    /**
     * Keeps the job's published names in {@code directory}, shared with every other job given it (weftrun
     * {@code --names}), instead of in this service alone.
     */
    public void shareNamesIn(java.nio.file.Path directory) {
        requests.shareNamesIn(directory);
    }

    /** Starts the processes of spawns ({@link Spawner}); without one, spawns are refused. */
    public void spawner(Spawner spawner) {
        requests.spawner(spawner);
    }

    /** The processes of job ranks {@code first ..} died before they met: a spawn waiting for them fails. */
    public void spawnedDied(int first, int count, String reason) {
        requests.failed(first, count, reason);
    }

    /** Whether job rank {@code rank} belongs to a spawned world. */
    public boolean isSpawned(int rank) {
        Worlds.World world = worlds.of(rank);
        return world != null && world.first() > 0;
    }

    /** Serves a request of a registered rank. */
    void request(int rank, byte[] body, RankConnection connection) throws IOException {
        if (body.length < 5) {
            throw new IOException("REQUEST frame too short");
        }
        requests.handle(rank, BootstrapProtocol.getInt(body, 0), body[4],
                java.util.Arrays.copyOfRange(body, 5, body.length), connection);
    }

    /** A rank that registers after the job ended is told so at once. */
    void endIfOver(RankConnection connection) {
        byte[] end = jobEnd;
        if (end != null) {
            connection.sendQuietly(BootstrapProtocol.JOB_END, end);
        }
    }

    void contribute(int rank, byte type, byte[] body) {
        Worlds.World world = worlds.of(rank);
        CollectiveRound.Answer answer;
        try {
            answer = world.round().contribute(rank - world.first(), type, body);
        } catch (CollectiveRound.Mismatch e) {
            report(new BootstrapEvent.Violation(rank, e.getMessage()));
            return;
        }
        if (type == BootstrapProtocol.ALLGATHER) {
            cards.put(rank, body); // the latest exchange's card is the one other worlds get
        }
        if (answer != null) {
            for (RankConnection connection : registered()) {
                if (world.contains(connection.rank())) {
                    connection.sendQuietly(answer.type(), answer.body());
                }
            }
        }
    }

    void report(BootstrapEvent event) {
        listener.accept(event);
    }

    private synchronized List<RankConnection> registered() {
        List<RankConnection> list = new ArrayList<>(ranks.size());
        for (RankConnection connection : ranks) {
            if (connection != null) {
                list.add(connection);
            }
        }
        return list;
    }

    /**
     * Tells every registered rank (and any that registers later) that the job is over; their watchers stop them.
     */
    public void endJob(int code, String message) {
        byte[] body = BootstrapProtocol.codeAndMessage(code, message);
        jobEnd = body;
        for (RankConnection connection : registered()) {
            connection.sendQuietly(BootstrapProtocol.JOB_END, body);
        }
    }

    /** Whether {@code rank} has registered (proved the secret). */
    public synchronized boolean isRegistered(int rank) {
        return rank < ranks.size() && ranks.get(rank) != null;
    }

    /**
     * Whether {@code rank} left cleanly (said BYE). If it is registered and its connection is still open, waits
     * up to {@code timeout} for the connection to close first, so a BYE in flight is not missed.
     */
    public boolean awaitLeft(int rank, Duration timeout) throws InterruptedException {
        RankConnection connection;
        synchronized (this) {
            connection = rank < ranks.size() ? ranks.get(rank) : null;
        }
        if (connection == null) {
            return false;
        }
        connection.closedLatch().await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return connection.leftCleanly();
    }

    /** Stops listening and drops every connection; ranks still connected see their launcher vanish. */
    @Override
    public void close() {
        List<RankConnection> connections;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            connections = new ArrayList<>(all);
        }
        for (ServerSocket serverSocket : serverSockets) {
            try {
                serverSocket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        connections.forEach(RankConnection::closeQuietly);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
