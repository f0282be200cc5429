package org.weft.mm.module.tcp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.weft.adi.log.ThrottledLog;
import org.weft.adi.net.HostAddresses;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.Doorbell;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.PeerCredentials;
import org.weft.mm.tls.JobTls;
import org.weft.mm.tls.TlsPolicy;

/**
 * The {@code tcp} communication module: Netty admits connections, the callers' threads move the data.
 *
 * <p>The fast path costs no thread wake-up: a send is written to the socket by the sending thread, and arrivals
 * are read and delivered by whichever thread calls {@link #poll()} (a rank blocked in a wait polls; a rank whose
 * idle strategy parked it finds the data at its next poll, a bounded park later). Netty's event loop handles only
 * what is rare: accepting, the HELLO, strangers, and closing at shutdown.
 *
 * <ul>
 *   <li>{@link #init}: one event loop (one thread, shared by the server and the connections under admission: the
 *       machines have two cores), a server socket on an ephemeral port of each address it advertises
 *       ({@code tcp_if_address}, see {@link TcpParameters}; {@link TcpListeners}): loopback in a job on one host.
 *       Nagle is off, keep-alive on.</li>
 *   <li>{@link #connect}: one {@link TcpLink} per peer, cached; a non-blocking socket whose HELLO is queued before
 *       anything else. A pair shares one connection: a process that accepts a connection from a peer it has not
 *       dialled sends to that peer on it ({@link #adopt}); the dialler reads replies on it. (Raw Java measured a
 *       0-byte one-way 4.0 µs over one connection and 6.3–6.6 µs over two: each direction's reads and writes then
 *       share one socket's buffers and wake-ups.) When both dial at once, the connection the lower rank dialled
 *       stays: the higher rank ends its own with a MOVED and continues on the other after a SWITCHED, which its
 *       peer delivers only after the MOVED, so order holds across the switch.</li>
 *   <li>An accepted connection stays with Netty ({@link InboundConnection}) until its HELLO proves the job id and
 *       secret; then Netty stops reading it and an {@link InboundStream} takes the socket over. {@link #poll()}
 *       reads those streams and delivers their RSRs on the caller's thread, one at a time per sender, in each
 *       sender's order, at most {@value #MAX_PER_POLL} per connection per poll; it also writes what sends left
 *       queued. The sink may send from within a delivery.</li>
 *   <li>A stranger, a wrong secret, garbage, an over-long frame, a missing HELLO or an RSR the sink rejects
 *       closes that one connection with one line on the log (a stranger's: the first {@value #STRANGERS_BURST}
 *       per {@link #STRANGERS_INTERVAL}, then a count, {@link ThrottledLog}); the server keeps accepting.</li>
 * </ul>
 * Wire format: {@link FrameLayout}. Descriptor bytes: {@link TcpAddress}.
 */
public final class TcpModule implements CommModule {
    /** Name of the frame decoder in an inbound pipeline (replaced after the HELLO). */
    static final String FRAMES = "frames";
    /** Bytes of a HELLO besides its job id, nonce and proof: magic, version, ranks, a string length, and slack. */
    private static final int MAX_HELLO_FIXED = 64;

    public static final String NAME = "tcp";

    private static final int SHUTDOWN_WAIT_MILLIS = 2000;
    /** Connections that fail their admission reported one by one per {@link #STRANGERS_INTERVAL}. */
    static final int STRANGERS_BURST = 5;
    static final Duration STRANGERS_INTERVAL = Duration.ofSeconds(10);
    /** RSRs one poll delivers from one connection at most (bounded polling: STYLE.md #7). */
    static final int MAX_PER_POLL = 64;
    /** How often idle stripes are read (ms): {@link #stripesDue}. */
    static final long STRIPE_SWEEP_MILLIS = 20;

    private final String name;
    private final Consumer<String> logSink;
    private final TcpRoutes routes;
    private final ConcurrentHashMap<Integer, TcpLink> links = new ConcurrentHashMap<>();
    /** The links, for polling without garbage: replaced (copy on write) when a link is made. */
    private volatile TcpLink[] linkArray = new TcpLink[0];
    /** Peers whose connection was lost, until the device is told (made at init). */
    private LostPeers lostPeers;
    /** The authenticated inbound connections the callers' threads poll: replaced when one comes or goes. */
    private volatile InboundStream[] inbound = new InboundStream[0];
    /**
     * Where the next poll starts among {@link #inbound}, so that no sender is always served last. Racy on
     * purpose (plain int, several pollers): a lost increment only shifts the rotation.
     */
    private int rotation;
    /**
     * The wide-area stripes' inbound connections (accepted ones carry a peer's CHUNKs; dialled ones only its BYE):
     * read only while they can matter ({@link #stripesDue}), not at every poll: a path that striped once keeps up to
     * 32 of them each way open, and reading them all cost every later poll ~20 us (issue 22, sixth session).
     */
    private volatile InboundStream[] stripeInbound = new InboundStream[0];
    /** When idle stripes are read next anyway (ns): a stripe closed, or bytes nobody announced. Racy on purpose. */
    private long nextStripeSweep = System.nanoTime();
    /** Stripe connections the polls read, in all (racy: for tests and the report). */
    private long stripeReads;
    /** The wide-area links' striping, for polling: replaced (copy on write) when one is made; empty on one site. */
    private volatile StripedTransfer[] stripedArray = new StripedTransfer[0];
    /** This process's paths to other sites, by site. */
    private final ConcurrentHashMap<String, WidePath> widePaths = new ConcurrentHashMap<>();
    private final StripeReceives stripeReceives = new StripeReceives();
    private final ProbeMeter probeMeter = new ProbeMeter();
    /**
     * Until when (ns, {@link System#nanoTime()}) connections accepted may take longer than tcp_handshake_timeout to
     * present their HELLO: a peer announced a burst of stripes (STRIPES). Never earlier than it was.
     */
    private final AtomicLong helloGraceUntil = new AtomicLong(System.nanoTime());
    /** The nonces of the HELLOs this process accepted: a replayed HELLO is refused. */
    private final Set<String> seenNonces = ConcurrentHashMap.newKeySet();
    /** Registers the connections with the process's wake selector. */
    private final TcpDoorbell doorbell = new TcpDoorbell(this::allInbound, () -> inbound.length > 0);
    /** Accepted channels that carry this process's sends too: their link says BYE and closes them. */
    private final Set<Channel> adopted = ConcurrentHashMap.newKeySet();
    /** Per peer, MOVEDs read and not yet matched by a SWITCHED (see {@link FrameLayout}); sized at init. */
    private AtomicIntegerArray moves;
    private final AtomicBoolean shutdown = new AtomicBoolean();
    private volatile boolean initialised;
    private ModuleContext context;
    private TcpConfig config;
    private EventLoopGroup group;
    /** The listening channels: one per address listened on, all on one port. */
    private List<Channel> servers;
    /** Lines about connections that never proved themselves: anyone who reaches the port can make them. */
    private ThrottledLog strangers;
    private ChannelGroup accepted;
    private Descriptor localDescriptor;
    /** This rank's TLS credentials and context, made at the first connection that needs them ({@link #tls()}). */
    private volatile JobTls tls;
    /** The TLS credentials towards other jobs' processes, by the key of the port's link they were met through. */
    private final java.util.concurrent.ConcurrentMap<String, JobTls> foreignTls =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Connections made or accepted, encrypted and not, for the report. */
    private final AtomicInteger encryptedConnections = new AtomicInteger();
    private final AtomicInteger plaintextConnections = new AtomicInteger();

    /** A module that logs its one-line connection reports to standard error. */
    public TcpModule() {
        this(System.err::println);
    }

    /** A module that hands its one-line connection reports to {@code logSink} (tests capture them). */
    public TcpModule(Consumer<String> logSink) {
        this(NAME, logSink, TcpRoutes.DIRECT);
    }

    /**
     * The tcp machinery under another method's {@code name}, its links dialling where {@code routes} says (the
     * relay method: through relays, without a listener of its own).
     */
    public TcpModule(String name, Consumer<String> logSink, TcpRoutes routes) {
        this.name = name;
        this.logSink = logSink;
        this.routes = routes;
    }

    @Override
    public String name() {
        return name;
    }

    /** The fallback: its event loop costs a rank about a tenth of a second of start-up and more at exit. */
    @Override
    public boolean startsOnDemand() {
        return true;
    }

    @Override
    public String unavailabilityCause(ModuleContext context) {
        try {
            TcpConfig.from(context.parameters());
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    @Override
    public synchronized void init(ModuleContext context) throws Exception {
        if (initialised || shutdown.get()) {
            throw new IllegalStateException("tcp module already initialised");
        }
        this.context = context;
        this.config = TcpConfig.from(context.parameters());
        this.lostPeers = new LostPeers(TimeUnit.MILLISECONDS.toNanos(config.lostPeerWaitMillis()), context::peerLost);
        this.moves = new AtomicIntegerArray(context.rankLimit());
        DaemonGlobalExecutor.install();
        this.strangers = new ThrottledLog(logSink, STRANGERS_BURST, STRANGERS_INTERVAL, (count, interval, last) ->
                "weft " + name + " (rank " + context.rank() + "): closed " + count
                        + " more connections that sent no valid HELLO in the last " + interval + " (the last "
                        + last + ")");
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("weft-" + name + "-" + context.rank(), true));
        List<String> advertised = routes.listens() ? advertisedHosts() : List.of();
        try {
            this.accepted = new DefaultChannelGroup("weft-" + name + "-accepted", group.next());
            this.servers = advertised.isEmpty() ? List.of() : TcpListeners.bind(serverBootstrap(), advertised);
        } catch (Exception | Error e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        if (!servers.isEmpty()) {
            int port = ((InetSocketAddress) servers.getFirst().localAddress()).getPort();
            this.localDescriptor = new TcpAddress(advertised, port).toDescriptor();
        }
        this.initialised = true;
        if (config.tls() == TlsPolicy.ALL || config.tls() == TlsPolicy.CROSS_SITE && !context.site().isEmpty()) {
            // tcp starts in a job with sites only when they need it (several sites, or hosts): make the credentials
            // and load the JDK's TLS on the event loop while the job starts (0.2-1 s cold on these VMs), not at the
            // first message across sites. A job without sites never makes them.
            group.execute(this::warmTls);
        }
    }

    /** Makes the credentials and one engine, so that the first encrypted connection finds the JDK's TLS loaded. */
    private void warmTls() {
        try {
            tls().engine(context.rank(), true).beginHandshake();
        } catch (javax.net.ssl.SSLException | RuntimeException e) {
            log("cannot prepare TLS: " + InboundConnection.describe(e)); // the first connection that needs it says more
        }
    }

    /**
     * This rank's TLS credentials, made by the first connection that is encrypted (a key pair and a certificate:
     * milliseconds, see the report), so that a rank that never leaves its site never makes them.
     */
    JobTls tls() {
        JobTls made = tls;
        if (made == null) {
            synchronized (encryptedConnections) {
                made = tls;
                if (made == null) {
                    made = JobTls.create(context.jobId(), context.secret(), context.rank());
                    tls = made;
                }
            }
        }
        return made;
    }

    /**
     * The TLS credentials of a connection to {@code peerRank}: this rank's, or for a process of another job those
     * of the port's link it met that job through (made at its first encrypted connection, one per link).
     */
    JobTls tls(int peerRank) {
        PeerCredentials credentials = context.credentialsWith(peerRank);
        if (!credentials.foreign()) {
            return tls();
        }
        return foreignTls.computeIfAbsent(credentials.secret(), key -> JobTls.create(credentials.jobId(),
                context.jobId(), key, credentials.myRank()));
    }

    /** Whether the connection to {@code peerRank} is encrypted, by {@code tcp_tls} and the two ranks' sites. */
    boolean encrypts(int peerRank) {
        return config.tls().encrypts(context.site(), context.siteOf(peerRank));
    }

    /** Counts a connection this process dialled or accepted, for the report. */
    void counted(boolean encrypted) {
        (encrypted ? encryptedConnections : plaintextConnections).incrementAndGet();
    }

    /**
     * The wire of an accepted connection whose HELLO is verified: TLS when the HELLO announces it; plaintext
     * otherwise, unless this process's policy encrypts connections from that rank (a HELLO cannot be stripped of its
     * TLS flag on the way, so that is a peer configured otherwise).
     */
    Wire acceptedWire(Hello hello, java.nio.channels.SocketChannel socket) throws IOException {
        if (hello.announcesTls()) {
            counted(true);
            return TlsWire.server(socket, tls(hello.rank()).engine(hello.rank(), false));
        }
        if (encrypts(hello.rank())) {
            throw new Hello.RejectedHelloException("rank " + hello.rank() + " connected in plaintext, but "
                    + TcpParameters.TLS.name() + "=" + config.tls() + " encrypts the connections between site '"
                    + context.site() + "' and site '" + context.siteOf(hello.rank()) + "'");
        }
        counted(false);
        return new PlainWire(socket);
    }

    /** What {@code tcp_tls} did here: the policy, the connections it encrypted, what the credentials cost. */
    private String tlsReportLine() {
        JobTls made = tls;
        return TcpParameters.TLS.name() + " " + config.tls() + ": " + encryptedConnections.get()
                + " connections TLS 1.3 (AES-GCM), " + plaintextConnections.get() + " plaintext; "
                + (made == null ? "no credentials made" : String.format("credentials made in %.1f ms",
                        made.setupNanos() / 1e6));
    }

    /** What {@link TcpParameters#IF_ADDRESS} asks to advertise; see there for {@code auto}. */
    private List<String> advertisedHosts() {
        if (!config.ifAddress().equals(TcpParameters.AUTO)) {
            return List.of(config.ifAddress().split(","));
        }
        List<String> addresses = context.isOneHostJob() ? List.of() : HostAddresses.nonLoopback();
        return addresses.isEmpty() ? List.of("127.0.0.1") : addresses;
    }

    private ServerBootstrap serverBootstrap() {
        ServerBootstrap b = new ServerBootstrap().group(group, group).channelFactory(AcceptedChannels.Server::new)
                .option(ChannelOption.ALLOCATOR, alloc())
                .childOption(ChannelOption.ALLOCATOR, alloc())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<io.netty.channel.socket.SocketChannel>() {
                    @Override
                    protected void initChannel(io.netty.channel.socket.SocketChannel ch) {
                        awaitHello(ch);
                    }
                });
        if (config.rcvbuf() > 0) {
            // Set on the listening socket too: the window scale of accepted sockets is fixed before accept().
            b.option(ChannelOption.SO_RCVBUF, config.rcvbuf()).childOption(ChannelOption.SO_RCVBUF, config.rcvbuf());
        }
        if (config.sndbuf() > 0) {
            b.childOption(ChannelOption.SO_SNDBUF, config.sndbuf());
        }
        return b;
    }

    /** An accepted connection (or one {@link #admit}ted) must prove itself with a HELLO before anything else. */
    private void awaitHello(Channel ch) {
        accepted.add(ch);
        ch.pipeline().addLast(FRAMES, newHelloDecoder()).addLast(new InboundConnection(this));
    }

    /**
     * Takes {@code socket}, a connection this process made but that a peer's link reaches it by (the relay method's
     * reverse connection: the relay asked this process to dial it, and splices the peer's connection onto it), as if
     * the listener had accepted it: the peer's HELLO must come first and prove the job's secret; then the pair
     * shares it as any accepted connection ({@link #adopt}). {@code via} names the way in messages
     * ({@code through relay b (...)}). Any thread.
     */
    public void admit(SocketChannel socket, String via) throws IOException {
        requireInitialised();
        socket.configureBlocking(false);
        TcpLink.applySocketOptions(socket, config);
        AcceptedChannels.Accepted channel = new AcceptedChannels.Accepted(null, socket, via);
        channel.config().setAllocator(alloc());
        awaitHello(channel);
        group.register(channel).addListener(registered -> {
            if (!registered.isSuccess()) {
                log("cannot take the connection from " + channel.remoteAddress() + ": " + registered.cause());
                socket.close();
            }
        });
    }

    /**
     * The decoder of a connection that has not proved itself yet: frames no longer than a HELLO can be, so that a
     * stranger's plausible length prefix is refused at once instead of holding the connection until the handshake
     * deadline. After a valid HELLO the
     * connection is read by an {@link InboundStream}, which checks frames against {@code tcp_max_frame}.
     */
    LengthFieldBasedFrameDecoder newHelloDecoder() {
        int helloLimit = FrameLayout.LENGTH_FIELD + FrameLayout.IDS_LENGTH + MAX_HELLO_FIXED
                + context.jobId().getBytes(StandardCharsets.UTF_8).length + Hello.NONCE_LENGTH + Hello.PROOF_LENGTH;
        return frameDecoder(helloLimit);
    }

    private static LengthFieldBasedFrameDecoder frameDecoder(int maxFrame) {
        return new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN, maxFrame, 0,
                FrameLayout.LENGTH_FIELD, 0, FrameLayout.LENGTH_FIELD, true);
    }

    @Override
    public Descriptor localDescriptor() {
        requireInitialised();
        return localDescriptor;
    }

    /** The address peers dial, as advertised in {@link #localDescriptor()} ({@code null} when not listening). */
    public TcpAddress localAddress() {
        Descriptor mine = localDescriptor();
        return mine == null ? null : TcpAddress.of(mine);
    }

    /**
     * The link to {@code peerRank}, made on first use (asynchronously: this never waits for the network);
     * {@code null} when {@code remote} is not a tcp descriptor.
     */
    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        TcpLink link = links.get(peerRank);
        if (link == null) {
            TcpRoute route = routes.route(peerRank, remote);
            if (route == null) {
                return null;
            }
            requireInitialised();
            link = links.computeIfAbsent(peerRank, rank -> publish(TcpLink.open(this, rank, route)));
        }
        stripeIfWideArea(peerRank, link, remote);
        return link;
    }

    /**
     * Gives the link to a rank of another site its striping over that site's path (once); a link inside a site gets
     * none and pays nothing for it.
     */
    private void stripeIfWideArea(int peerRank, TcpLink link, Descriptor remote) {
        String mine = context.site();
        String theirs = context.siteOf(peerRank);
        if (mine.isEmpty() || theirs.isEmpty() || mine.equals(theirs) || link.bulk() != null) {
            return;
        }
        TcpRoute route = routes.route(peerRank, remote);
        if (route == null) {
            return;
        }
        WidePath path = widePaths.computeIfAbsent(theirs,
                site -> new WidePath(mine + ":" + site, config.paths().settings(mine, site)));
        synchronized (this) {
            if (link.bulk() == null) {
                StripedTransfer transfer = new StripedTransfer(this, peerRank, route, path);
                link.stripeOver(transfer);
                StripedTransfer[] grown = Arrays.copyOf(stripedArray, stripedArray.length + 1);
                grown[grown.length - 1] = transfer;
                stripedArray = grown;
            }
        }
    }

    /**
     * A peer dialled this process, which has no link to it yet: sends to that peer go on the accepted connection,
     * so the pair shares one. If this process dialled it too, the connection the lower rank dialled stays: a higher
     * rank switches its link to the accepted connection, a lower one keeps its own (and reads the accepted one until
     * the peer's MOVED). Called on the event loop when the HELLO is verified.
     */
    void adopt(int peerRank, TcpLink link, Channel accepted, InboundStream stream) {
        if (shutdown.get()) {
            return;
        }
        TcpLink mine = links.computeIfAbsent(peerRank, rank -> {
            adopted.add(accepted);
            return publish(link);
        });
        if (mine != link && peerRank < context.rank()) {
            // Both dialled: the connection the lower rank dialled stays, so both ends end up on the same one.
            adopted.add(accepted);
            mine.switchTo(stream.wire(), stream,
                    String.valueOf(accepted.remoteAddress()), accepted::close);
        }
    }

    /** A MOVED arrived from {@code peerRank}: the SWITCHED waiting on its new connection may be taken. */
    void moved(int peerRank) {
        moves.incrementAndGet(peerRank);
    }

    /** Takes one MOVED of {@code peerRank} for a SWITCHED; false when the MOVED has not arrived yet. */
    boolean takeMove(int peerRank) {
        while (true) {
            int available = moves.get(peerRank);
            if (available == 0) {
                return false;
            }
            if (moves.compareAndSet(peerRank, available, available - 1)) {
                return true;
            }
        }
    }

    private TcpLink publish(TcpLink made) {
        synchronized (this) {
            TcpLink[] grown = Arrays.copyOf(linkArray, linkArray.length + 1);
            grown[grown.length - 1] = made;
            linkArray = grown;
        }
        return made;
    }

    @Override
    public long eagerLimit() {
        if (!initialised) {
            throw new IllegalStateException("tcp module not initialised");
        }
        return config.eagerLimit();
    }

    @Override
    public Doorbell doorbell() {
        return doorbell;
    }

    /**
     * Reads the authenticated connections and delivers what arrived (at most {@value #MAX_PER_POLL} RSRs per
     * connection, starting with a different one each time), then writes what sends left queued. Returns the RSRs
     * delivered, plus one per link that got bytes out (so that an idle strategy does not back off while a large
     * message is still being written). Never blocks; connections another thread is reading are skipped.
     */
    /** A connection still has bytes to write, or a striped message is still being sent. */
    @Override
    public boolean holdsOutbound() {
        for (TcpLink link : linkArray) {
            if (link.needsProgress()) {
                return true;
            }
        }
        for (StripedTransfer transfer : stripedArray) {
            if (transfer.isActive()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int poll() {
        if (!initialised || shutdown.get()) {
            return 0;
        }
        int work = pollStreams(inbound);
        for (TcpLink link : linkArray) {
            if (link.needsProgress()) {
                work += link.progress();
            }
        }
        boolean sendingStriped = false;
        for (StripedTransfer transfer : stripedArray) {
            if (transfer.isActive()) {
                sendingStriped = true;
                work += transfer.progress();
            }
        }
        InboundStream[] stripes = stripeInbound;
        if (stripes.length > 0 && stripesDue(sendingStriped)) {
            stripeReads += stripes.length;
            work += pollStreams(stripes);
        }
        return work + lostPeers.tellDue();
    }

    /** Polls {@code streams}, starting with a different one each time so that no sender is always served last. */
    private int pollStreams(InboundStream[] streams) {
        int work = 0;
        int count = streams.length;
        if (count > 0) {
            int first = Math.floorMod(rotation++, count);
            for (int i = 0; i < count; i++) {
                work += streams[(first + i) % count].poll(MAX_PER_POLL);
            }
        }
        return work;
    }

    /**
     * Whether this poll reads the stripes: while a striped message is being received (its CHUNKs, and the probe
     * that may precede its data, come only after this process started the receive and sent the CTS) or sent (a
     * stripe the peer closes fails the message at once), else once per {@value #STRIPE_SWEEP_MILLIS} ms, so that an
     * idle stripe that closes is still noticed and the path stops striping, as when every poll read it.
     */
    private boolean stripesDue(boolean sendingStriped) {
        if (sendingStriped || stripeReceives.expecting()) {
            return true;
        }
        long now = System.nanoTime();
        if (now - nextStripeSweep < 0) {
            return false;
        }
        nextStripeSweep = now + TimeUnit.MILLISECONDS.toNanos(STRIPE_SWEEP_MILLIS);
        return true;
    }

    /** The stripes' inbound connections now: for tests. */
    int stripeConnections() {
        return stripeInbound.length;
    }

    /** Stripe connections the polls read so far (one per stripe per poll that read them): for tests. */
    long stripeReads() {
        return stripeReads;
    }

    /** A thread of this process is about to wait: every link writes what its aggregate holds. */
    @Override
    public void flush() {
        for (TcpLink link : linkArray) {
            link.flushHeld();
        }
    }

    /**
     * What {@code tcp_tls} did here, then one line per link whose path aggregates or compresses: its policies and
     * what they did.
     */
    @Override
    public List<String> reportLines() {
        List<String> lines = new ArrayList<>();
        if (initialised) {
            lines.add(tlsReportLine());
        }
        // this process's wide-area paths (none on one site): a line each, and one per size class it striped
        widePaths.values().stream().sorted(java.util.Comparator.comparing(WidePath::name))
                .forEach(path -> lines.addAll(path.describe().lines().toList()));
        for (TcpLink link : linkArray) {
            String line = link.describePath();
            if (line != null) {
                lines.add(line);
            }
        }
        return lines;
    }

    /**
     * Sends a BYE on every connection and closes it once what was queued is written, then stops the event loop;
     * waits a bounded time (about {@value #SHUTDOWN_WAIT_MILLIS} ms at most per step). Idempotent.
     */
    @Override
    public void shutdown() {
        if (!shutdown.compareAndSet(false, true) || !initialised) {
            return;
        }
        strangers.flush();
        // The links belong to no event loop: close them here (each waits a bounded time for its queue to drain).
        for (StripedTransfer transfer : stripedArray) {
            transfer.close();
        }
        for (TcpLink link : linkArray) {
            link.closeGracefully();
        }
        for (Channel ch : accepted) {
            if (!adopted.contains(ch) && ch instanceof AcceptedChannels.Accepted a && a.wire() instanceof TlsWire w) {
                adopted.add(ch); // its BYE goes inside TLS, not through Netty below the session
                sayBye(w);
                ch.close();
            }
        }
        var loop = group.next();
        List<ChannelFuture> closing = new ArrayList<>();
        Future<?> farewell = loop.submit(() -> {
            servers.forEach(Channel::close);
            for (Channel ch : accepted) {
                if (adopted.contains(ch)) {
                    continue; // its link said BYE
                }
                ch.writeAndFlush(Frames.bye(alloc())).addListener(ChannelFutureListener.CLOSE);
                closing.add(ch.closeFuture());
            }
        });
        if (!loop.inEventLoop()) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_WAIT_MILLIS);
            farewell.awaitUninterruptibly(SHUTDOWN_WAIT_MILLIS);
            for (ChannelFuture f : farewell.isDone() ? closing : List.<ChannelFuture>of()) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !f.awaitUninterruptibly(TimeUnit.NANOSECONDS.toMillis(left))) {
                    break; // the event loop's own shutdown closes whatever is left
                }
            }
        }
        Future<?> stopped = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (!loop.inEventLoop()) {
            stopped.awaitUninterruptibly(SHUTDOWN_WAIT_MILLIS);
        }
    }

    /**
     * At shutdown, on an accepted connection this process never sent on (its peer's own link is the pair's): a BYE
     * through its TLS session, bounded in time. Netty would write it below the session, as plaintext the peer's
     * engine takes for an altered record.
     */
    private static void sayBye(TlsWire wire) {
        ByteBuffer bye = ByteBuffer.wrap(Frames.controlBytes(FrameLayout.BYE_HANDLER));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_WAIT_MILLIS / 10);
        try {
            while (wire.isEstablished() && (bye.hasRemaining() || wire.hasPendingOutput())
                    && System.nanoTime() - deadline < 0) {
                if (wire.write(bye) == 0 && wire.flush() == 0) {
                    LockSupport.parkNanos(50_000);
                }
            }
        } catch (IOException e) {
            // the peer went first: nothing to say goodbye to
        }
    }

    private void requireInitialised() {
        if (!initialised) {
            throw new IllegalStateException("tcp module not initialised");
        }
        if (shutdown.get()) {
            throw new IllegalStateException("tcp module shut down");
        }
    }

    // --- for the connection handlers of this package ---

    /** An inbound connection whose HELLO was verified: polled from now on. Any thread. */
    synchronized void addInbound(InboundStream stream) {
        if (stream.isClosed()) {
            return;
        }
        if (stream.isStripe()) {
            stripeInbound = grown(stripeInbound, stream);
        } else {
            inbound = grown(inbound, stream);
        }
        doorbell.watch(stream.socket());
    }

    /** A closed inbound connection: no longer polled. Any thread; idempotent. */
    synchronized void removeInbound(InboundStream stream) {
        if (stream.isStripe()) {
            stripeInbound = without(stripeInbound, stream);
        } else {
            inbound = without(inbound, stream);
        }
    }

    /** Every inbound connection, stripes too (the doorbell watches them all). */
    private InboundStream[] allInbound() {
        InboundStream[] main = inbound;
        InboundStream[] stripes = stripeInbound;
        InboundStream[] all = Arrays.copyOf(main, main.length + stripes.length);
        System.arraycopy(stripes, 0, all, main.length, stripes.length);
        return all;
    }

    private static InboundStream[] grown(InboundStream[] streams, InboundStream stream) {
        InboundStream[] grown = Arrays.copyOf(streams, streams.length + 1);
        grown[grown.length - 1] = stream;
        return grown;
    }

    private static InboundStream[] without(InboundStream[] streams, InboundStream stream) {
        for (int i = 0; i < streams.length; i++) {
            if (streams[i] == stream) {
                InboundStream[] shrunk = new InboundStream[streams.length - 1];
                System.arraycopy(streams, 0, shrunk, 0, i);
                System.arraycopy(streams, i + 1, shrunk, i, streams.length - i - 1);
                return shrunk;
            }
        }
        return streams;
    }

    ModuleContext context() {
        return context;
    }

    StripeReceives stripeReceives() {
        return stripeReceives;
    }

    TcpLink linkTo(int peerRank) {
        return links.get(peerRank);
    }

    /**
     * A control frame of the wide-area paths from {@code source} (layout in {@link FrameLayout}; {@code body} from
     * position to limit); throws {@link IllegalArgumentException} for one that breaks the layout.
     */
    void control(int source, int handlerId, ByteBuffer body) {
        switch (handlerId) {
            case FrameLayout.CHUNK_HANDLER -> stripeReceives.chunk(source, requireLength(body, FrameLayout.CHUNK_HEAD));
            case FrameLayout.PROBE_HANDLER -> {
                byte[] result = probeMeter.probe(source, requireLength(body, PathProbe.HEAD));
                if (result != null) {
                    answer(source, FrameLayout.PROBE_RESULT_HANDLER, result);
                }
            }
            case FrameLayout.PING_HANDLER -> answer(source, FrameLayout.PONG_HANDLER, copy(requireLength(body, 8)));
            case FrameLayout.PONG_HANDLER -> ponged(source, System.nanoTime()
                    - requireLength(body, 8).getLong(body.position()), body.remaining() >= 16
                    && body.getLong(body.position() + 8) == FrameLayout.AGGREGATION_PING);
            case FrameLayout.PROBE_RESULT_HANDLER -> answered(source, requireLength(body, 16).getLong(body.position()),
                    body.getLong(body.position() + 8));
            case FrameLayout.STRIPES_HANDLER -> expectStripes(requireLength(body, 16).getLong(body.position()),
                    body.getLong(body.position() + 8));
            case FrameLayout.STRIPES_FAILED_HANDLER -> stripesFailed(source, body);
            default -> throw new IllegalArgumentException("unexpected control frame " + handlerId);
        }
    }

    /**
     * A peer is about to dial {@code streams} stripes over a path of round trip {@code rttNanos}: connections
     * accepted from now on get the time such a burst takes ({@link SetupAllowance}) on top of the handshake timeout.
     * Bounded (a rank of the job cannot make it unbounded; strangers cannot send it at all).
     */
    private void expectStripes(long streams, long rttNanos) {
        int count = (int) Math.clamp(streams, 0, PathSettings.MOST_STREAMS);
        long rtt = Math.clamp(rttNanos, 0, TimeUnit.SECONDS.toNanos(10));
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.handshakeTimeoutMillis())
                + SetupAllowance.nanos(count, rtt);
        helloGraceUntil.accumulateAndGet(until, (now, next) -> next - now > 0 ? next : now);
    }

    /** How much longer than the handshake timeout an accepted connection may still take to say HELLO (ns, ≥ 0). */
    long helloGraceLeftNanos() {
        return Math.max(0, helloGraceUntil.get() - System.nanoTime());
    }

    private static ByteBuffer requireLength(ByteBuffer body, int least) {
        if (body.remaining() < least) {
            throw new IllegalArgumentException("control frame of " + body.remaining() + " bytes, at least " + least
                    + " expected");
        }
        return body;
    }

    private static byte[] copy(ByteBuffer body) {
        byte[] bytes = new byte[body.remaining()];
        body.get(body.position(), bytes);
        return bytes;
    }

    private void answer(int source, int handlerId, byte[] body) {
        TcpLink link = links.get(source);
        if (link != null) {
            link.sendControl(handlerId, body);
        }
    }

    /** A PONG came: the round trip to {@code source}, for its link's aggregation or for its path's probe. */
    private void ponged(int source, long rttNanos, boolean aggregation) {
        TcpLink link = links.get(source);
        if (aggregation) {
            if (link != null) {
                link.roundTrip(rttNanos);
            }
        } else {
            answered(source, PathProbe.PONG, rttNanos);
        }
    }

    /** A PONG ({@code what} {@link PathProbe#PONG}) or a PROBE_RESULT ({@code what}: its phase) came. */
    private void answered(int source, long what, long value) {
        TcpLink link = links.get(source);
        StripedTransfer transfer = link == null ? null : link.bulk();
        if (transfer != null) {
            transfer.answered(what, value);
        }
    }

    /**
     * The receive buffer of an accepted stripe from {@code source}: its path's window when one is declared (the
     * window scale was agreed at accept with the listener's buffers; Linux takes the larger buffer now).
     */
    void applyStripeWindow(java.nio.channels.SocketChannel socket, int source) {
        int window = config.paths().settings(context.site(), context.siteOf(source)).window();
        if (window > 0) {
            try {
                socket.setOption(java.net.StandardSocketOptions.SO_RCVBUF, window);
            } catch (java.io.IOException e) {
                log("stripe from rank " + source + ": cannot set a " + window + "-byte window: " + e);
            }
        }
    }

    /**
     * A connection from {@code source} ended unannounced: its striped messages to this process fail; when it was the
     * pair's connection ({@code stream} is what the link to {@code source} reads), so is the peer, for good.
     */
    void connectionLost(int source, String why, InboundStream stream) {
        TcpLink link = links.get(source);
        if (link != null && link.readsFrom(stream)) {
            link.lost();
            pairLost(source, why);
        }
        StripedTransfer transfer = link == null ? null : link.bulk();
        if (transfer != null) {
            transfer.connectionEnded(); // it may have been one of this side's stripes
        }
        failStripedFrom(source, why);
    }

    /** STRIPES_FAILED: a stripe of {@code source}'s to this process failed (its body: why, in UTF-8). */
    private void stripesFailed(int source, ByteBuffer body) {
        int length = Math.min(body.remaining(), FrameLayout.MOST_REASON_BYTES);
        byte[] reason = new byte[length];
        body.get(body.position(), reason);
        failStripedFrom(source, "rank " + source + " says: " + new String(reason, StandardCharsets.UTF_8));
    }

    /** The striped messages this process is receiving from {@code source} fail with {@code why}, logged once. */
    private void failStripedFrom(int source, String why) {
        WidePath path = widePaths.get(context.siteOf(source));
        int failed = stripeReceives.sourceLost(source, why);
        if (failed > 0) {
            log((path == null ? "" : "wide-area path " + path.name() + ": ") + failed
                    + " striped message(s) from rank " + source + " fail: " + why);
        }
    }


    /** The wide-area path to {@code peer}'s site, or null (inside a site, or before the first connect). */
    WidePath widePathTo(int peer) {
        return widePaths.get(context.siteOf(peer));
    }

    /**
     * The connection {@code peer} and this process share is gone for {@code why} while both run: the device hears
     * of it after {@code tcp_lost_peer_wait} (see {@link LostPeers}) and fails what waits on the peer. Nothing at
     * shutdown, when connections end anyway.
     */
    void pairLost(int peer, String why) {
        if (!shutdown.get()) {
            lostPeers.lost(peer, why, System.nanoTime());
        }
    }

    Set<String> seenNonces() {
        return seenNonces;
    }

    TcpConfig config() {
        return config;
    }

    /**
     * Netty's pooled allocator, named only once the module runs: its class's initialisation (arenas, Netty's logger
     * probes, a leak detector) cost every rank start-up CPU when the module was merely constructed, as a one-host
     * job's on-demand tcp is (issue 20, item 12).
     */
    ByteBufAllocator alloc() {
        return PooledByteBufAllocator.DEFAULT;
    }

    boolean isShuttingDown() {
        return shutdown.get();
    }

    void log(String line) {
        logSink.accept("weft " + name + " (rank " + context.rank() + "): " + line);
    }

    /**
     * Logs the end of a connection that had not proved itself ({@link ThrottledLog}: {@code gist}, its peer and
     * why, is what a summary keeps of the last one).
     */
    void logStranger(String line, String gist) {
        strangers.log("weft " + name + " (rank " + context.rank() + "): " + line, gist);
    }
}
