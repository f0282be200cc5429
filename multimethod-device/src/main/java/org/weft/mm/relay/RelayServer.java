package org.weft.mm.relay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.weft.adi.log.ThrottledLog;
import org.weft.mm.module.relay.ControlMessages;
import org.weft.mm.module.relay.RelayAddress;
import org.weft.mm.module.relay.RelayParameters;
import org.weft.mm.module.relay.RelayRequest;
import org.weft.mm.module.tcp.TcpAddress;

/**
 * A relay process's work, on one thread: accepts connections, admits those whose {@link RelayRequest} proves the
 * job's secret (anything else is closed and reported, throttled: strangers can flood), keeps each registered rank's
 * control connection, and joins paths: a CONNECT for a rank registered here waits for that rank's reverse
 * connection (asked for on its control connection); a CONNECT naming a next relay goes on to it as a FORWARD, which
 * a relay serves or refuses but never passes on. Each path holds at most two {@link Pipe}s of {@code buffer} bytes.
 *
 * <p>A forward is one {@code epoll_wait}, one {@code read} and one {@code write} on this thread: no queue, no hand-off
 * to another thread, no allocation. After it forwarded something, the thread polls its connections for {@code spin}
 * before it sleeps in {@code select}, which saves the wake-up when the relay has a core of its own; on a host whose
 * cores the ranks keep busy it must not spin ({@link RelayParameters#spinMicros}).
 */
public final class RelayServer implements AutoCloseable {
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
    /**
     * The smallest pipe: it must take a path's first bytes whole (the FORWARD to the next relay, then what came
     * after the rank's request in the handshake's read, each up to a request's largest size, 4100 bytes).
     */
    static final int MIN_BUFFER = 16 << 10;
    private static final long SELECT_MILLIS = 500;
    /** How often late handshakes and paths are looked for. */
    private static final long EXPIRE_NANOS = TimeUnit.MILLISECONDS.toNanos(SELECT_MILLIS);

    private final String site;
    private final String jobId;
    private final String secret;
    private final int buffer;
    private final long spinNanos;
    private final Consumer<String> log;
    private final ThrottledLog strangers;
    private final Selector selector;
    private final List<ServerSocketChannel> servers = new ArrayList<>();
    private final Set<String> seenNonces = new HashSet<>();
    /** Each registered rank's control connection. */
    private final Map<Integer, SocketChannel> registered = new HashMap<>();
    /** Paths waiting for their target's reverse connection, by session. */
    private final Map<Long, Path> awaiting = new HashMap<>();
    private final Map<Long, Long> awaitingSince = new HashMap<>();
    private final List<Handshake> handshakes = new ArrayList<>();
    private long nextSession = ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE;
    private volatile boolean closed;
    /** {@link #dispatch}, made once: the select loop hands it each ready key. */
    private final Consumer<SelectionKey> dispatcher = this::dispatch;

    /**
     * {@code buffer}: bytes of a pipe, at least {@link #MIN_BUFFER}. {@code log}: one line per event worth telling
     * (a refused stranger, a broken path), prefixed here.
     */
    public RelayServer(String site, String jobId, String secret, int buffer, long spinMicros, Consumer<String> log)
            throws IOException {
        this.site = site;
        this.jobId = jobId;
        this.secret = secret;
        this.buffer = Math.max(buffer, MIN_BUFFER);
        this.spinNanos = TimeUnit.MICROSECONDS.toNanos(spinMicros);
        this.log = line -> log.accept("weft relay " + site + ": " + line);
        this.strangers = new ThrottledLog(this.log, 5, Duration.ofSeconds(10), (count, interval, last) ->
                "refused " + count + " more connections in the last " + interval + " (the last " + last + ")");
        this.selector = Selector.open();
    }

    /** Listens on {@code hosts} (one port for all, ephemeral); returns where. */
    public TcpAddress bind(List<String> hosts) throws IOException {
        int port = 0;
        for (String host : hosts) {
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(host, port), 64);
            port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT, server);
            servers.add(server);
        }
        return new TcpAddress(hosts, port);
    }

    /**
     * Serves until {@link #close()}. Each ready key goes straight to {@link #dispatch} (no selected-key set to fill
     * and empty per pass).
     */
    public void run() throws IOException {
        long spinUntil = 0;
        long expireAt = System.nanoTime() + EXPIRE_NANOS;
        while (!closed) {
            int ready = System.nanoTime() - spinUntil < 0 ? selector.selectNow(dispatcher)
                    : selector.select(dispatcher, SELECT_MILLIS);
            long now = System.nanoTime();
            if (ready > 0) {
                spinUntil = now + spinNanos;
            } else if (spinUntil == 0 || now - spinUntil >= 0) {
                spinUntil = 0;
            }
            if (now - expireAt >= 0) { // on a clock, not when idle: traffic must not keep a silent stranger open
                expire();
                expireAt = now + EXPIRE_NANOS;
            }
        }
    }

    private void dispatch(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        Object what = key.attachment();
        try {
            switch (what) {
                case ServerSocketChannel server -> accept(server);
                case Handshake handshake -> onHandshake(key, handshake);
                case Path.Side side when key.isConnectable() -> connected(side);
                case Path.Side side -> {
                    if (key.isReadable()) {
                        side.path().onReadable(side);
                    }
                    if (key.isValid() && key.isWritable()) {
                        side.path().onWritable(side);
                    }
                }
                case Integer rank -> controlEvent(key, rank);
                default -> throw new IllegalStateException("unknown attachment " + what);
            }
        } catch (IOException e) {
            log.accept("error: " + e);
        }
    }

    private void accept(ServerSocketChannel server) throws IOException {
        SocketChannel channel;
        while ((channel = server.accept()) != null) {
            channel.configureBlocking(false);
            channel.socket().setTcpNoDelay(true);
            Handshake handshake = new Handshake(channel, String.valueOf(channel.getRemoteAddress()),
                    System.nanoTime() + HANDSHAKE_TIMEOUT.toNanos());
            handshakes.add(handshake);
            channel.register(selector, SelectionKey.OP_READ, handshake);
        }
    }

    private void onHandshake(SelectionKey key, Handshake handshake) {
        RelayRequest request;
        ByteBuffer whole;
        try {
            whole = handshake.read();
            if (whole == null) {
                return;
            }
            request = RelayRequest.verify(whole, jobId, secret, seenNonces);
        } catch (RelayRequest.Refused e) {
            refuse(key, handshake, e.getMessage());
            return;
        } catch (IOException e) {
            refuse(key, handshake, e.getMessage());
            return;
        }
        handshakes.remove(handshake);
        ByteBuffer leftover = handshake.leftover(whole.limit());
        switch (request.kind()) {
            case REGISTER -> register(key, handshake.channel, request.rank());
            case CONNECT, FORWARD -> connect(key, handshake, request, leftover);
            case ACCEPT -> accepted(key, handshake, request, leftover);
        }
    }

    private void refuse(SelectionKey key, Handshake handshake, String why) {
        handshakes.remove(handshake);
        key.cancel();
        Path.closeQuietly(handshake.channel);
        strangers.log("refused a connection from " + handshake.remote + ": " + why,
                "from " + handshake.remote + ": " + why);
    }

    private void register(SelectionKey key, SocketChannel channel, int rank) {
        SocketChannel earlier = registered.put(rank, channel);
        if (earlier != null) {
            Path.closeQuietly(earlier);
        }
        key.attach(rank);
        key.interestOps(SelectionKey.OP_READ); // only to see it end
        writeFully(channel, ControlMessages.registered());
    }

    /** A registered rank's control connection: it says nothing, so anything here is its end. */
    private void controlEvent(SelectionKey key, int rank) {
        ByteBuffer scratch = ByteBuffer.allocate(64);
        try {
            if (((SocketChannel) key.channel()).read(scratch) >= 0) {
                return;
            }
        } catch (IOException e) {
            // ended all the same
        }
        key.cancel();
        Path.closeQuietly((SocketChannel) key.channel());
        registered.remove(rank, (SocketChannel) key.channel());
    }

    /** A path from {@code request.rank()} to {@code request.target()}: served here, or on to the next relay. */
    private void connect(SelectionKey key, Handshake handshake, RelayRequest request, ByteBuffer leftover) {
        Path path = new Path("rank " + request.rank() + " -> rank " + request.target(), handshake.channel, buffer,
                log);
        key.attach(path.source);
        path.source.key = key;
        SocketChannel target = registered.get(request.target());
        if (target == null && request.kind() == RelayRequest.Kind.CONNECT && !request.nextRelay().isEmpty()) {
            path.toTargetFirst(ByteBuffer.wrap(RelayRequest.signed(RelayRequest.Kind.FORWARD, request.rank(),
                    request.target(), 0, jobId, "", secret).encode()));
            path.toTargetFirst(leftover);
            forward(path, RelayAddress.parse(request.nextRelay()));
            return;
        }
        path.toTargetFirst(leftover);
        if (target == null) {
            path.fail(new IOException("rank " + request.target() + " is not registered with this relay"));
            return;
        }
        long session = nextSession++;
        awaiting.put(session, path);
        awaitingSince.put(session, System.nanoTime());
        writeFully(target, ControlMessages.dial(session, request.rank()));
        update(path);
    }

    /** Dials the next relay (its first address in dial order) for {@code path}; the FORWARD waits in the pipe. */
    private void forward(Path path, RelayAddress next) {
        try {
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.socket().setTcpNoDelay(true);
            String host = next.address().dialOrder().getFirst();
            boolean done = channel.connect(new InetSocketAddress(host, next.address().port()));
            Path.Side target = path.attachTarget(channel, true);
            target.key = channel.register(selector, SelectionKey.OP_CONNECT, target);
            if (done) {
                connected(target);
            } else {
                update(path);
            }
        } catch (IOException e) {
            path.fail(new IOException("cannot reach " + next.describe() + ": " + e.getMessage()));
        }
    }

    /** The connection to the next relay is made (or failed). */
    private void connected(Path.Side target) {
        try {
            target.channel.finishConnect();
            target.key.interestOps(0);
            target.path().onTargetConnected();
        } catch (IOException e) {
            target.path().fail(new IOException("cannot reach the next relay: " + e.getMessage()));
        }
    }

    /** A rank's reverse connection for a waiting path: the two are joined; what either sent already goes on. */
    private void accepted(SelectionKey key, Handshake handshake, RelayRequest request, ByteBuffer leftover) {
        Path path = awaiting.remove(request.session());
        awaitingSince.remove(request.session());
        if (path == null || path.isClosed()) {
            refuse(key, handshake, "no path waits for session " + request.session() + " (rank " + request.rank()
                    + ")");
            return;
        }
        Path.Side target = path.attachTarget(handshake.channel, false);
        target.out.put(leftover);
        target.key = key;
        key.attach(target);
        path.onWritable(target);
        path.onWritable(path.source);
    }

    private void update(Path path) {
        try {
            path.update();
        } catch (IOException e) {
            path.fail(e);
        }
    }

    /** Ends handshakes and waiting paths that took too long. */
    private void expire() {
        if (handshakes.isEmpty() && awaitingSince.isEmpty()) {
            return; // the usual case, and without the copies below: a busy relay allocates nothing
        }
        long now = System.nanoTime();
        for (Handshake handshake : List.copyOf(handshakes)) {
            if (now - handshake.deadline > 0) {
                SelectionKey key = handshake.channel.keyFor(selector);
                if (key != null) {
                    refuse(key, handshake, "no request within " + HANDSHAKE_TIMEOUT.toSeconds() + " s");
                }
            }
        }
        for (Long session : List.copyOf(awaitingSince.keySet())) {
            if (now - awaitingSince.get(session) - HANDSHAKE_TIMEOUT.toNanos() > 0) {
                awaitingSince.remove(session);
                Path path = awaiting.remove(session);
                path.fail(new IOException("its target did not dial back within " + HANDSHAKE_TIMEOUT.toSeconds()
                        + " s"));
            }
        }
    }

    /** A control message: a few bytes on a connection that carries nothing else, so the socket takes them. */
    private void writeFully(SocketChannel channel, ByteBuffer bytes) {
        try {
            long deadline = System.nanoTime() + HANDSHAKE_TIMEOUT.toNanos();
            while (bytes.hasRemaining() && System.nanoTime() - deadline < 0) {
                if (channel.write(bytes) == 0) {
                    Thread.onSpinWait();
                }
            }
        } catch (IOException e) {
            log.accept("cannot write to a registered rank: " + e.getMessage());
        }
    }

    /** Stops {@link #run()} and closes every connection. */
    @Override
    public void close() {
        closed = true;
        selector.wakeup();
    }

    /** After {@link #run()} returned: releases the sockets. */
    public void release() {
        strangers.flush();
        for (SelectionKey key : selector.keys()) {
            try {
                key.channel().close();
            } catch (IOException ignored) {
                // closing is all we wanted
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
