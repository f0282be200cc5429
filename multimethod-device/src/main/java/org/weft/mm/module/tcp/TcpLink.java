package org.weft.mm.module.tcp;

import org.weft.mm.spi.PeerCredentials;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;
import org.weft.mm.stats.MethodCounters;

/**
 * The sending side of the {@code tcp} method to one peer, on the one connection the pair shares: the connection this
 * process dialled ({@link #open}) or, when the peer dialled first, the one it accepted ({@link #adopt}). Either way one
 * sender's RSRs travel on one TCP stream, in order. Each side reads what arrives on the connection through an
 * {@link InboundStream}. When both dial at once, the higher rank moves its sends to the connection the lower rank
 * dialled ({@link #switchTo}), so a pair always ends up on one connection.
 *
 * <p>No thread hand-off: {@link #send} runs on the caller's thread, under this link's lock, appends the frame to an
 * {@link OutboundBuffer} and writes it to the non-blocking socket at once. What the socket does not take (a full
 * socket buffer, a connection still being made) stays queued, in order, and is written by later sends or by
 * {@link TcpModule#poll()} on whichever thread polls. On a dialled connection the HELLO is the first thing queued,
 * so nothing can precede it on the wire.
 *
 * <p>A write that fails, or a close the reading side notices, marks the link dead: sends answer
 * {@link SendStatus#FAILED} from then on. Until the connection is up a send takes nothing
 * ({@link SendStatus#BACK_PRESSURED}): should no address of the peer answer, the link is
 * {@linkplain #unreachableBecause() unreachable} and the device sends everything by the next method instead (a relay).
 *
 * <p>Back-pressure: once {@code tcp_send_queue} bytes wait for the socket, {@code send} answers
 * {@link SendStatus#BACK_PRESSURED} without taking the RSR, and the device keeps it in the peer's pending queue until
 * a poll has written enough. A sender faster than the network waits instead of growing memory without bound.
 */
public final class TcpLink implements CommObject {
    private enum State { CONNECTING, OPEN, CLOSED }

    /** How long {@link #closeGracefully()} keeps writing what is queued before it gives up. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Native payloads from this size on are written from the caller's memory (gathering write), not copied. */
    static final long GATHER_THRESHOLD = 32 * 1024;

    private final TcpModule module;
    private final int peerRank;
    /** What this link sent (under {@link #lock}). */
    private final MethodCounters.Traffic traffic;
    /** The connection, its description and how to close it (through Netty for an accepted one, so that Netty lets
     * go of it too); replaced once by {@link #switchTo}. Under {@link #lock}. */
    private String remote;
    private Wire wire;
    private Runnable closer;
    /** Until when the connection being dialled may take to answer (the connect timeout, per address). */
    private long connectDeadline;
    /** A dialled link's addresses of the peer, in dial order, the next one to try and what the tried ones said. */
    private final List<String> dialHosts;
    private final int dialPort;
    /** How messages name the way to the peer when it is not direct ({@link TcpRoute#via()}), else empty. */
    private String via = "";
    /** Written on each dialled socket as soon as it connects, below the {@link Wire} ({@link TcpRoute#preamble()}). */
    private byte[] preamble = new byte[0];
    /** A dialled link's HELLO when the connection is TLS: the wire writes it before the handshake. Else null. */
    private final byte[] tlsHello;
    /** A stripe's socket buffers (0: the module's). */
    private int window;
    /** A stripe of a wide-area path (its loss fails the path's messages, not the peer), not the pair's link. */
    private boolean stripe;
    private int nextDial;
    private final List<String> dialFailures = new ArrayList<>();
    /** Guards {@link #out}, the connection, the socket's writes and state changes. */
    private final ReentrantLock lock = new ReentrantLock();
    private final OutboundBuffer out = new OutboundBuffer();
    private volatile State state;
    /** Queued bytes or a connection under way: {@link TcpModule#poll()} should call {@link #progress()}. */
    private volatile boolean needsProgress;
    /**
     * The path's frame policies, chosen at the first send ({@link #choosePath}); null when off. Under the lock
     * (the report, at the end of the job, reads them without it).
     */
    private boolean pathKnown;
    private Aggregation aggregation;
    /** PINGs sent for the aggregation's round trip. Under {@link #lock}. */
    private int pingsSent;
    private Compression compression;
    private String pathName = "";
    /** The striping of large messages when the peer is of another site, else null (set once, by the module). */
    private volatile StripedTransfer striped;
    /** Set when every address failed before the connection opened: see {@link #unreachableBecause()}. */
    private volatile String unreachableBecause;
    /** What arrives on this connection; made when a dialled connection opens. */
    private volatile InboundStream replies;

    private TcpLink(TcpModule module, int peerRank, String remote, Wire wire, Runnable closer,
                    State state, List<String> dialHosts, int dialPort, byte[] tlsHello) {
        this.module = module;
        this.peerRank = peerRank;
        this.remote = remote;
        this.wire = wire;
        this.closer = closer;
        this.state = state;
        this.needsProgress = state == State.CONNECTING;
        this.dialHosts = dialHosts;
        this.dialPort = dialPort;
        this.tlsHello = tlsHello;
        this.traffic = module.context().counters().newTraffic();
    }

    /**
     * Starts dialling {@code address} without waiting for it; the HELLO is queued first. The peer's addresses are
     * tried in dial order (its host's on this host's subnets first), each until it refuses or the connect timeout
     * passes: the first that answers carries the link.
     */
    static TcpLink open(TcpModule module, int peerRank, TcpRoute route) {
        return open(module, peerRank, route, FrameLayout.HELLO_HANDLER, 0);
    }

    /**
     * Starts dialling a stripe of a wide-area path to {@code peerRank} (a connection that carries only this side's
     * CHUNKs and PROBEs, see {@link FrameLayout}), with socket buffers of {@code window} bytes (0: the OS's).
     */
    static TcpLink openStripe(TcpModule module, int peerRank, TcpRoute route, int window) {
        return open(module, peerRank, route, FrameLayout.STRIPE_HELLO_HANDLER, window);
    }

    private static TcpLink open(TcpModule module, int peerRank, TcpRoute route, int helloHandler, int window) {
        TcpAddress address = route.address();
        var job = module.context();
        boolean encrypted = module.encrypts(peerRank);
        PeerCredentials credentials = job.credentialsWith(peerRank);
        byte[] hello = Frames.helloBytes(Hello.signed(FrameLayout.PROTOCOL_VERSION, credentials.myRank(),
                credentials.peerRank(), encrypted ? Hello.TLS : 0, credentials.jobId(), credentials.secret()),
                helloHandler);
        TcpLink link = new TcpLink(module, peerRank, address.toString(), null, () -> { }, State.CONNECTING,
                address.dialOrder(), address.port(), encrypted ? hello : null);
        link.via = route.via();
        link.preamble = route.preamble();
        link.window = window;
        link.stripe = helloHandler == FrameLayout.STRIPE_HELLO_HANDLER;
        link.pathKnown = link.stripe; // a stripe's chunks go as they are
        if (!encrypted) {
            link.out.append(hello);
        }
        link.lock.lock();
        try {
            link.dialNext();
            link.progress0();
        } finally {
            link.lock.unlock();
        }
        return link;
    }

    /**
     * Under the lock: starts connecting to the next address of the peer not tried yet; when none is left, the link
     * is dead and the log says what each address answered.
     */
    private void dialNext() {
        while (nextDial < dialHosts.size()) {
            String host = dialHosts.get(nextDial++);
            remote = host + ":" + dialPort;
            connectDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(module.config().connectTimeoutMillis());
            try {
                SocketChannel dialling = SocketChannel.open();
                wire = tlsHello == null ? new PlainWire(dialling)
                        : TlsWire.client(dialling, module.tls(peerRank).engine(peerRank, true), tlsHello);
                closer = () -> closeQuietly(dialling);
                dialling.configureBlocking(false);
                applySocketOptions(dialling, module.config(), window);
                dialling.connect(new InetSocketAddress(host, dialPort));
                return;
            } catch (IOException | RuntimeException e) { // includes an unresolvable host
                dialFailed(InboundConnection.describe(e));
            }
        }
        unreachableBecause = "cannot connect to rank " + peerRank + via(" ") + " at " + (dialFailures.size() == 1 ? ""
                : "any of its " + dialFailures.size() + " addresses: ") + String.join("; ", dialFailures);
        fail(null); // the device says it, should no other method reach the peer
    }

    /** Why no address of the peer answered, when none did (the link never opened and took no RSR), else null. */
    @Override
    public String unreachableBecause() {
        return unreachableBecause;
    }

    /** Under the lock: the address being dialled failed with {@code why}; the socket goes. */
    private void dialFailed(String why) {
        dialFailures.add(remote + ": " + why);
        closer.run();
    }

    /**
     * Sends to {@code peerRank} on a connection it dialled and this process accepted (its HELLO verified), so that
     * the pair shares one connection; {@code closer} closes it through Netty.
     */
    static TcpLink adopt(TcpModule module, int peerRank, Wire accepted, InboundStream replies,
                         String remote, Runnable closer) {
        TcpLink link = new TcpLink(module, peerRank, remote, accepted, closer, State.OPEN, List.of(), 0, null);
        link.replies = replies;
        return link;
    }

    /** {@code prefix} and how the link reaches its peer when that is not direct, else nothing. */
    private String via(String prefix) {
        return via.isEmpty() ? "" : prefix + via;
    }

    static void applySocketOptions(SocketChannel channel, TcpConfig config) throws IOException {
        applySocketOptions(channel, config, 0);
    }

    /** Nagle off, keep-alive on, the configured buffers; a stripe's {@code window}, when set, for both. */
    private static void applySocketOptions(SocketChannel channel, TcpConfig config, int window) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        int sndbuf = window > 0 ? window : config.sndbuf();
        int rcvbuf = window > 0 ? window : config.rcvbuf();
        if (sndbuf > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, sndbuf);
        }
        if (rcvbuf > 0) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, rcvbuf);
        }
    }

    @Override
    public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        if (state == State.CLOSED) {
            return SendStatus.FAILED;
        }
        int frameLength = Frames.rsrLength(module.config().maxFrame(), endpointId, handlerId, header, payload);
        return sendFrame(frameLength, endpointId, handlerId, header, payload, module.config().sendQueueBytes());
    }

    /**
     * Queues and writes one frame of {@code frameLength} bytes (checked by the caller), unless {@code queueLimit}
     * bytes wait already; counts it as sent.
     */
    SendStatus sendFrame(int frameLength, int endpointId, int handlerId, ByteBuffer header, MemorySegment payload,
                         int queueLimit) {
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return SendStatus.FAILED;
            }
            if (state == State.CONNECTING) {
                // Nothing is taken before the connection is up: should no address answer, the device can still
                // send every RSR by another method (unreachableBecause).
                progress0();
                if (state != State.OPEN) {
                    return state == State.CLOSED ? SendStatus.FAILED : SendStatus.BACK_PRESSURED;
                }
            }
            if (out.pendingBytes() >= queueLimit) {
                progress0();
                if (out.pendingBytes() >= queueLimit) {
                    return state == State.CLOSED ? SendStatus.FAILED : SendStatus.BACK_PRESSURED;
                }
            }
            if (!pathKnown) {
                choosePath();
            }
            if (aggregation != null || compression != null) {
                sendShaped(frameLength, endpointId, handlerId, header, payload);
            } else if (state == State.OPEN && payload.isNative() && payload.byteSize() >= GATHER_THRESHOLD) {
                writeGathered(frameLength, endpointId, handlerId, header, payload);
            } else {
                out.appendRsr(frameLength, endpointId, handlerId, header, payload);
                progress0();
            }
            // A write that failed just now took the frame with it: it is not sent.
            if (state == State.CLOSED) {
                return SendStatus.FAILED;
            }
            traffic.sent(header.remaining() + payload.byteSize());
            return SendStatus.SENT;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the lock, on a path that aggregates or compresses: the RSR goes compressed when that pays, else it joins
     * the aggregate, which is written now unless the policy lets it wait (then a wait or a later poll writes it).
     */
    private void sendShaped(int frameLength, int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        Aggregation a = aggregation;
        // Only an aggregate may wait: bytes a full socket left queued go at once, and nothing waits to connect.
        boolean mayHold = a != null && state == State.OPEN && out.pendingBytes() == a.heldBytes();
        long now = a == null ? 0 : System.nanoTime();
        Compression c = compression;
        if (c != null && c.considers(frameLength) && c.appendCompressed(out, frameLength, endpointId, handlerId,
                header, payload, socketBehind(a))) {
            mayHold = false;
        } else if (state == State.OPEN && payload.isNative() && payload.byteSize() >= GATHER_THRESHOLD) {
            if (a != null) {
                a.added(frameLength, now); // too large to wait: it goes now, after what is held
            }
            writeGathered(frameLength, endpointId, handlerId, header, payload);
            return;
        } else {
            out.appendRsr(frameLength, endpointId, handlerId, header, payload);
        }
        if (a != null) {
            a.added(frameLength, now);
            if (mayHold && a.mayWait(now)) {
                needsProgress = true;
                module.context().holdingSends();
                return;
            }
        }
        progress0();
    }

    /**
     * Under the lock: bytes written before still wait for the socket (beyond what the aggregate holds on purpose):
     * the wire drains slower than this process sends.
     */
    private boolean socketBehind(Aggregation a) {
        return out.pendingBytes() > (a == null ? 0 : a.heldBytes()) || wire.hasPendingOutput();
    }

    /**
     * Under the lock, at the first send: the frame policies of the path to the peer (its site is known by then),
     * from {@code tcp_aggregate} and {@code tcp_compress}.
     */
    private void choosePath() {
        pathKnown = true;
        String here = module.context().site();
        String there = module.context().siteOf(peerRank);
        TcpConfig config = module.config();
        AggregationPolicy policy = config.aggregate().forPath(here, there);
        aggregation = policy.isOff() ? null : new Aggregation(policy, System.nanoTime());
        if (policy.mode() == AggregationPolicy.Mode.ADAPTIVE) {
            ping(); // adaptive holds in proportion to the path's round trip, once known
        }
        compression = switch (config.compress().forPath(here, there)) {
            case OFF -> null;
            case LZ4 -> new Compression(config.compressMin(), null);
            case AUTO -> new Compression(config.compressMin(), new CompressionChoice(module.widePathTo(peerRank)));
        };
        pathName = here.equals(there) ? (here.isEmpty() ? "same-site" : "same-site " + here)
                : "cross-site " + here + "-" + there;
    }

    /** A PING for this link's adaptive aggregation: the peer echoes it at once ({@link #roundTrip}). */
    private void ping() {
        pingsSent++;
        sendControl(FrameLayout.PING_HANDLER, ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN)
                .putLong(System.nanoTime()).putLong(FrameLayout.AGGREGATION_PING).array());
    }

    /** The PONG of this link's PING came: the adaptive aggregation learns the round trip; the next PING goes. */
    void roundTrip(long rttNanos) {
        lock.lock();
        try {
            Aggregation a = aggregation;
            if (a != null) {
                a.roundTrip(rttNanos);
                if (pingsSent < Aggregation.PINGS && state != State.CLOSED) {
                    ping();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Any thread: writes what the aggregate holds, now (a thread of this process is about to wait). */
    void flushHeld() {
        lock.lock();
        try {
            Aggregation a = aggregation;
            if (a != null && a.holding()) {
                progress0();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Queues and writes a control frame with {@code body} (PING, PONG, PROBE_RESULT); rare. */
    boolean sendControl(int handlerId, byte[] body) {
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return false;
            }
            out.append(Frames.controlBytes(handlerId, body));
            progress0();
            return state != State.CLOSED;
        } finally {
            lock.unlock();
        }
    }

    /** For the report: what this link's path does beyond sending, or null when it only sends. */
    String describePath() {
        Aggregation a = aggregation;
        Compression c = compression;
        if (a == null && c == null) {
            return null;
        }
        StringBuilder line = new StringBuilder(module.name()).append(" to rank ").append(peerRank).append(" (")
                .append(pathName).append("): aggregation ");
        if (a == null) {
            line.append("off");
        } else {
            long frames = a.frames();
            line.append(a.policy().describe());
            if (a.relativeHold() > 0) {
                line.append(", holding at most ").append(TimeUnit.NANOSECONDS.toMicros(a.relativeHold()))
                        .append(" us (a tenth of the round trip)");
            }
            line.append(", ").append(a.rsrs()).append(" RSRs in ").append(frames)
                    .append(" frames (").append(frames == 0 ? "-" : String.format("%.2f", (double) a.rsrs() / frames))
                    .append(" a frame)");
        }
        line.append("; ").append(c == null ? "compression off" : c.describe());
        return line.toString();
    }

    /** Open, with nothing queued: a stripe takes its next chunk. */
    boolean isIdle() {
        return state == State.OPEN && !needsProgress;
    }

    boolean isDead() {
        return state == State.CLOSED;
    }

    /** Where the connection goes, for messages. */
    String remote() {
        return remote;
    }

    /** Striped transfers over a wide-area path; null between ranks of one site. */
    @Override
    public StripedTransfer bulk() {
        return striped;
    }

    void stripeOver(StripedTransfer transfer) {
        striped = transfer;
    }

    @Override
    public String methodName() {
        return module.name();
    }

    public int peerRank() {
        return peerRank;
    }

    boolean needsProgress() {
        return needsProgress;
    }

    /**
     * Any thread, never blocks: finishes the connection and writes what is queued, unless another thread holds
     * the link (it does the same). Returns 1 when bytes went out, else 0. Notices a connection the reading side
     * found closed.
     */
    int progress() {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
            InboundStream in = replies;
            if (in != null && in.isClosed()) {
                fail(null); // the reading side said why, or the peer left
                return 0;
            }
            Aggregation a = aggregation;
            if (a != null && a.holding() && state == State.OPEN && !a.due(System.nanoTime())) {
                return 0; // the aggregate may wait a little longer
            }
            return progress0() > 0 ? 1 : 0;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: a large native payload goes from the caller's memory to the socket, not copied first. */
    private void writeGathered(int frameLength, int endpointId, int handlerId, ByteBuffer header,
            MemorySegment payload) {
        out.appendRsrHead(frameLength, endpointId, handlerId, header);
        try {
            out.writeWithTail(wire, payload.asByteBuffer());
        } catch (IOException e) {
            failWrite(e);
        }
        if (aggregation != null) {
            aggregation.written();
        }
        needsProgress = state == State.OPEN && hasUnwritten();
    }

    /** Under the lock. Returns the bytes written. */
    private int progress0() {
        int written = 0;
        if (state == State.CONNECTING) {
            finishConnect();
        }
        if (state == State.OPEN && hasUnwritten()) {
            try {
                written = out.isEmpty() ? wire.flush() : out.writeTo(wire);
            } catch (IOException e) {
                failWrite(e);
            }
            if (aggregation != null) {
                aggregation.written();
            }
        }
        needsProgress = state == State.CONNECTING || state == State.OPEN && hasUnwritten();
        return written;
    }

    /** Under the lock: bytes queued here or held by the wire are still to go out. */
    private boolean hasUnwritten() {
        return !out.isEmpty() || wire.hasPendingOutput();
    }

    /**
     * Writes the route's preamble on a socket that has just connected (its buffer is empty: a few hundred bytes go
     * at once), on the socket itself: whatever the wire does to the connection's bytes starts after it.
     */
    private void writePreamble(SocketChannel socket) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(preamble);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(module.config().connectTimeoutMillis());
        while (bytes.hasRemaining()) {
            if (socket.write(bytes) == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("the socket took no preamble within the connect timeout");
                }
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private void finishConnect() {
        try {
            if (wire.socket().finishConnect()) {
                writePreamble(wire.socket());
                state = State.OPEN;
                module.counted(tlsHello != null);
                InboundStream in = new InboundStream(module, peerRank, wire, remote + via(", "), closer, stripe);
                replies = in;
                module.addInbound(in);
            } else if (System.nanoTime() - connectDeadline > 0) {
                dialFailed("no answer within " + module.config().connectTimeoutMillis() + " ms");
                dialNext();
            }
        } catch (IOException e) {
            dialFailed(InboundConnection.describe(e));
            dialNext();
        }
    }

    /**
     * Both ends dialled and the peer, the lower rank, dialled the connection that stays: writes what is queued and a
     * MOVED on this link's own connection (finishing it first; bounded by the connect and close waits), retires it,
     * and sends from now on over {@code accepted}, starting with a SWITCHED. Runs on the event loop that verified
     * the peer's HELLO; senders wait on the link's lock meanwhile. If the old connection fails, the link stays dead.
     */
    void switchTo(Wire accepted, InboundStream acceptedStream, String acceptedRemote, Runnable acceptedCloser) {
        awaitOwnConnection(CLOSE_WAIT_NANOS + TimeUnit.MILLISECONDS.toNanos(module.config().connectTimeoutMillis()));
        lock.lock();
        try {
            out.append(Frames.controlBytes(FrameLayout.MOVED_HANDLER));
            writeOut(CLOSE_WAIT_NANOS + TimeUnit.MILLISECONDS.toNanos(module.config().connectTimeoutMillis()));
            if (state != State.OPEN || hasUnwritten()) {
                fail("cannot hand the connection to rank " + peerRank + " over to the one it dialled");
                return;
            }
            InboundStream old = replies;
            if (old != null) {
                old.retire();
            }
            closer.run(); // the peer reads up to MOVED, then sees the close
            wire = accepted;
            closer = acceptedCloser;
            remote = acceptedRemote;
            replies = acceptedStream;
            out.append(Frames.controlBytes(FrameLayout.SWITCHED_HANDLER));
            progress0();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Before a switch: lets this link's own connection finish connecting and its TLS handshake (which needs the
     * peer's polls) without holding the lock for the wait, so that senders queue meanwhile instead of blocking.
     */
    private void awaitOwnConnection(long waitNanos) {
        long deadline = System.nanoTime() + waitNanos;
        while (System.nanoTime() - deadline < 0) {
            lock.lock();
            try {
                if (state == State.CLOSED || state == State.OPEN && wire.isEstablished()) {
                    return;
                }
                progress0();
            } finally {
                lock.unlock();
            }
            LockSupport.parkNanos(50_000);
        }
    }

    private boolean leaving() {
        InboundStream in = replies;
        return module.isShuttingDown() || in != null && in.byeReceived();
    }

    /**
     * At shutdown: writes what is queued and a BYE (waiting a bounded time for a slow socket), and closes. The
     * reading side has read what the peer sent, so that the close is a clean FIN rather than a reset.
     */
    void closeGracefully() {
        lock.lock();
        try {
            if (state == State.OPEN && wire.isEstablished()) {
                out.append(Frames.controlBytes(FrameLayout.BYE_HANDLER));
                writeOut(CLOSE_WAIT_NANOS);
            }
            state = State.CLOSED;
            needsProgress = false;
            closer.run();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the lock: finishes connecting and writes what is queued, parking briefly when the socket takes nothing,
     * until the queue is empty, the link dead or {@code waitNanos} gone.
     */
    private void writeOut(long waitNanos) {
        long deadline = System.nanoTime() + waitNanos;
        while ((state == State.CONNECTING || state == State.OPEN && hasUnwritten())
                && System.nanoTime() - deadline < 0) {
            if (progress0() == 0) {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private void failWrite(IOException e) {
        fail(leaving() ? null : "connection to rank " + peerRank + " (" + remote + via(", ") + ") failed: "
                + InboundConnection.describe(e));
    }

    /**
     * Under the lock: the link is dead; sends answer FAILED from now on. {@code reason} null: say nothing (the
     * reading side said it, or nobody answered the dial); else the pair's connection is lost, and with it the peer.
     */
    private void fail(String reason) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        needsProgress = false;
        if (reason != null) {
            module.log(reason);
            if (!stripe) {
                module.pairLost(peerRank, reason);
            }
        }
        closer.run();
    }

    /** Whether {@code stream} reads this link's connection (the pair's, where the peer's RSRs come). */
    boolean readsFrom(InboundStream stream) {
        return replies == stream;
    }

    /** The reading side found the connection lost (and said why): the link is dead too, at once. */
    void lost() {
        lock.lock();
        try {
            fail(null);
        } finally {
            lock.unlock();
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
