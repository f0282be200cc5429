package org.weft.launcher.bootstrap;

import java.io.IOException;
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
 * <p>The service listens on the wildcard address. It advertises {@code 127.0.0.1} to a job on this host only, and
 * every non-loopback address of this host to a job with ranks on other hosts ({@link #address(boolean)}): a
 * rank tries those on its own subnets first, and a rank whose launcher is not on loopback knows the job spans hosts.
 *
 * <p>It never decides the job's fate itself: it reports what it sees to a listener ({@link BootstrapEvent}) and
 * the launcher answers with {@link #endJob}. Connections that fail the proof are dropped and reported once as
 * {@link BootstrapEvent.Refused}; they never touch the job's state.
 */
public final class BootstrapServer implements AutoCloseable {
    private static final String ADVERTISED_HOST = "127.0.0.1";

    private final int size;
    private final String secret;
    private final Consumer<BootstrapEvent> listener;
    private final ServerSocket serverSocket;
    private final RankConnection[] ranks;
    private final CollectiveRound round;
    private final List<RankConnection> all = new ArrayList<>();
    private volatile boolean closed;
    private volatile byte[] jobEnd;

    private BootstrapServer(int size, String secret, Consumer<BootstrapEvent> listener) throws IOException {
        this.size = size;
        this.secret = secret;
        this.listener = listener;
        this.ranks = new RankConnection[size];
        this.round = new CollectiveRound(size);
        this.serverSocket = new ServerSocket(0, 128);
    }

    /** Starts a service for a job of {@code size} ranks whose events nobody watches. */
    public static BootstrapServer start(int size, String secret) throws IOException {
        return start(size, secret, event -> { });
    }

    /**
     * Starts a service for a job of {@code size} ranks sharing {@code secret}.
     *
     * @param listener told of every {@link BootstrapEvent}, on the service's threads
     */
    public static BootstrapServer start(int size, String secret, Consumer<BootstrapEvent> listener)
            throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank, not " + size);
        }
        BootstrapServer server = new BootstrapServer(size, secret, listener);
        Thread acceptor = new Thread(server::acceptLoop, "weft-bootstrap-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return server;
    }

    /** Where ranks of a job on this host only connect: {@code 127.0.0.1:port} (the value of {@code WEFT_BOOTSTRAP}). */
    public String address() {
        return ADVERTISED_HOST + ":" + port();
    }

    /**
     * The value of {@code WEFT_BOOTSTRAP}: {@link #address()}, or, when some rank runs on another host, each
     * non-loopback address of this host with the port, comma-separated.
     *
     * @throws IOException when ranks run elsewhere and this host has no address but loopback
     */
    public String address(boolean ranksOnOtherHosts) throws IOException {
        if (!ranksOnOtherHosts) {
            return address();
        }
        List<String> addresses = HostAddresses.nonLoopback();
        if (addresses.isEmpty()) {
            throw new IOException("ranks run on other hosts, but this host has no network address but loopback");
        }
        return String.join(",", addresses.stream().map(a -> a + ":" + port()).toList());
    }

    public int port() {
        return serverSocket.getLocalPort();
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

    private void acceptLoop() {
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

    /** Claims {@code rank} for this connection; false if another connection has it. */
    synchronized boolean register(int rank, RankConnection connection) {
        if (ranks[rank] != null) {
            return false;
        }
        ranks[rank] = connection;
        return true;
    }

    /** A rank that registers after the job ended is told so at once. */
    void endIfOver(RankConnection connection) {
        byte[] end = jobEnd;
        if (end != null) {
            connection.sendQuietly(BootstrapProtocol.JOB_END, end);
        }
    }

    void contribute(int rank, byte type, byte[] body) {
        CollectiveRound.Answer answer;
        try {
            answer = round.contribute(rank, type, body);
        } catch (CollectiveRound.Mismatch e) {
            report(new BootstrapEvent.Violation(rank, e.getMessage()));
            return;
        }
        if (answer != null) {
            for (RankConnection connection : registered()) {
                connection.sendQuietly(answer.type(), answer.body());
            }
        }
    }

    void report(BootstrapEvent event) {
        listener.accept(event);
    }

    private synchronized List<RankConnection> registered() {
        List<RankConnection> list = new ArrayList<>(size);
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
        return ranks[rank] != null;
    }

    /**
     * Whether {@code rank} left cleanly (said BYE). If it is registered and its connection is still open, waits
     * up to {@code timeout} for the connection to close first, so a BYE in flight is not missed.
     */
    public boolean awaitLeft(int rank, Duration timeout) throws InterruptedException {
        RankConnection connection;
        synchronized (this) {
            connection = ranks[rank];
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
        try {
            serverSocket.close();
        } catch (IOException ignored) {
            // closing anyway
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
