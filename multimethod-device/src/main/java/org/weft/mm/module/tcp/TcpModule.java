package org.weft.mm.module.tcp;

import io.netty.bootstrap.Bootstrap;
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
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.ModuleContext;

/**
 * The {@code tcp} communication module, on Netty NIO.
 *
 * <ul>
 *   <li>{@link #init}: one event loop (one thread, shared by the server and every connection: the machines have
 *       two cores), a server socket on an ephemeral port of the wildcard address, advertised as
 *       {@code tcp_if_address}:port (see {@link TcpParameters}). Nagle is off, keep-alive on.</li>
 *   <li>{@link #connect}: one {@link TcpLink} per peer, cached; it connects asynchronously and holds sends until
 *       its HELLO is out. A process sends only on connections it initiated and receives only on ones it accepted.
 *   </li>
 *   <li>Arriving RSRs are delivered on the event-loop thread (so {@link #poll()} returns 0), one at a time, in
 *       each sender's order, once the connection's HELLO proved the job id and secret. The sink must therefore
 *       not block; it may send (a send from the event loop is written at once).</li>
 *   <li>A stranger, a wrong secret, garbage, an over-long frame, a missing HELLO or an RSR the sink rejects
 *       closes that one connection with one line on the log; the server keeps accepting.</li>
 * </ul>
 * Wire format: {@link FrameLayout}. Descriptor bytes: {@link TcpAddress}.
 */
public final class TcpModule implements CommModule {
    /** Name of the frame decoder in an inbound pipeline (replaced after the HELLO). */
    static final String FRAMES = "frames";
    /** Bytes of a HELLO besides its job id and secret: magic, version, rank, two string lengths, and slack. */
    private static final int MAX_HELLO_FIXED = 64;

    public static final String NAME = "tcp";

    private static final int SHUTDOWN_WAIT_MILLIS = 2000;

    private final Consumer<String> logSink;
    private final ConcurrentHashMap<Integer, TcpLink> links = new ConcurrentHashMap<>();
    private final AtomicBoolean shutdown = new AtomicBoolean();
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private volatile boolean initialised;
    private ModuleContext context;
    private TcpConfig config;
    private EventLoopGroup group;
    private Channel server;
    private ChannelGroup accepted;
    private Bootstrap clientBootstrap;
    private Descriptor localDescriptor;

    /** A module that logs its one-line connection reports to standard error. */
    public TcpModule() {
        this(System.err::println);
    }

    /** A module that hands its one-line connection reports to {@code logSink} (tests capture them). */
    public TcpModule(Consumer<String> logSink) {
        this.logSink = logSink;
    }

    @Override
    public String name() {
        return NAME;
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
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("weft-tcp-" + context.rank(), true));
        try {
            this.accepted = new DefaultChannelGroup("weft-tcp-accepted", group.next());
            this.server = serverBootstrap().bind(new InetSocketAddress(0)).sync().channel();
        } catch (Exception | Error e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        this.clientBootstrap = applySocketOptions(new Bootstrap().group(group).channel(NioSocketChannel.class))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMillis());
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        this.localDescriptor = new TcpAddress(config.ifAddress(), port).toDescriptor();
        this.initialised = true;
    }

    private ServerBootstrap serverBootstrap() {
        ServerBootstrap b = new ServerBootstrap().group(group, group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, alloc)
                .childOption(ChannelOption.ALLOCATOR, alloc)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accepted.add(ch);
                        ch.pipeline().addLast(FRAMES, newHelloDecoder()).addLast(new InboundConnection(TcpModule.this));
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

    private Bootstrap applySocketOptions(Bootstrap b) {
        b.option(ChannelOption.ALLOCATOR, alloc)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true);
        if (config.rcvbuf() > 0) {
            b.option(ChannelOption.SO_RCVBUF, config.rcvbuf());
        }
        if (config.sndbuf() > 0) {
            b.option(ChannelOption.SO_SNDBUF, config.sndbuf());
        }
        return b;
    }

    /** Splits the byte stream into frames (ids + body, length field stripped), refusing over-long ones at once. */
    LengthFieldBasedFrameDecoder newFrameDecoder() {
        return frameDecoder(config.maxFrame());
    }

    /**
     * The decoder of a connection that has not proved itself yet: frames no longer than a HELLO can be, so that a
     * stranger's plausible length prefix is refused at once instead of holding the connection until the handshake
     * deadline. {@link InboundConnection} swaps in {@link #newFrameDecoder()} after a valid HELLO.
     */
    LengthFieldBasedFrameDecoder newHelloDecoder() {
        int helloLimit = FrameLayout.LENGTH_FIELD + FrameLayout.IDS_LENGTH + MAX_HELLO_FIXED
                + context.jobId().getBytes(StandardCharsets.UTF_8).length
                + context.secret().getBytes(StandardCharsets.UTF_8).length;
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

    /** The address peers dial, as advertised in {@link #localDescriptor()}. */
    public TcpAddress localAddress() {
        return TcpAddress.of(localDescriptor());
    }

    /**
     * The link to {@code peerRank}, made on first use (asynchronously: this never waits for the network);
     * {@code null} when {@code remote} is not a tcp descriptor.
     */
    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        if (!NAME.equals(remote.method())) {
            return null;
        }
        requireInitialised();
        TcpLink link = links.get(peerRank);
        if (link != null) {
            return link;
        }
        TcpAddress address = TcpAddress.of(remote);
        return links.computeIfAbsent(peerRank, rank -> TcpLink.open(this, clientBootstrap, rank, address));
    }

    @Override
    public long eagerLimit() {
        if (!initialised) {
            throw new IllegalStateException("tcp module not initialised");
        }
        return config.eagerLimit();
    }

    /** Always 0: RSRs are delivered on the event-loop thread as they arrive. */
    @Override
    public int poll() {
        return 0;
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
        var loop = group.next();
        List<ChannelFuture> closing = new ArrayList<>();
        Future<?> farewell = loop.submit(() -> {
            server.close();
            for (TcpLink link : links.values()) {
                closing.add(link.closeGracefully());
            }
            for (Channel ch : accepted) {
                ch.writeAndFlush(Frames.bye(alloc)).addListener(ChannelFutureListener.CLOSE);
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

    private void requireInitialised() {
        if (!initialised) {
            throw new IllegalStateException("tcp module not initialised");
        }
        if (shutdown.get()) {
            throw new IllegalStateException("tcp module shut down");
        }
    }

    // --- for the connection handlers of this package ---

    ModuleContext context() {
        return context;
    }

    TcpConfig config() {
        return config;
    }

    ByteBufAllocator alloc() {
        return alloc;
    }

    boolean isShuttingDown() {
        return shutdown.get();
    }

    void log(String line) {
        logSink.accept("weft tcp (rank " + context.rank() + "): " + line);
    }
}
