package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.BYE_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.CONTROL_ENDPOINT;
import static org.weft.mm.module.tcp.FrameLayout.ENDPOINT_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HANDLER_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.IDS_LENGTH;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;

/**
 * The sending side of the {@code tcp} method to one peer: one connection this process initiated, on which it only
 * sends (the peer receives on the connection it accepted), so one sender's RSRs keep one TCP stream's order.
 *
 * <p>{@link #send} never blocks: it copies the RSR into a pooled direct frame and appends it to a multi-producer
 * outbox; one drain task on the event loop moves the outbox to the socket and flushes once per batch. Frames sent
 * while the connection is still being made wait in the same outbox and go out, in order, right after the HELLO.
 *
 * <p>Back-pressure: the outbox is unbounded and {@code send} never answers {@link SendStatus#BACK_PRESSURED}; a
 * sender faster than the network grows memory. A bounded outbox (answering BACK_PRESSURED above a watermark) is
 * future work.
 */
public final class TcpLink implements CommObject {
    private enum State { CONNECTING, OPEN, CLOSED }

    /** Frames written to the channel per drain before the event loop gets a turn at other work. */
    private static final int DRAIN_BATCH = 256;

    private final TcpModule module;
    private final int peerRank;
    private final TcpAddress address;
    private final Queue<ByteBuf> outbox = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private volatile State state = State.CONNECTING;
    private Channel channel;
    private EventLoop loop;
    /** The peer said BYE (event loop only): its close that follows is normal. */
    private boolean byeReceived;

    private TcpLink(TcpModule module, int peerRank, TcpAddress address) {
        this.module = module;
        this.peerRank = peerRank;
        this.address = address;
    }

    /** Starts connecting to {@code address} without waiting for it. */
    static TcpLink open(TcpModule module, Bootstrap bootstrap, int peerRank, TcpAddress address) {
        TcpLink link = new TcpLink(module, peerRank, address);
        ChannelFuture connecting = bootstrap.clone()
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(module.newFrameDecoder(), link.new ReplyHandler());
                    }
                })
                .connect(address.host(), address.port());
        link.channel = connecting.channel();
        link.loop = link.channel.eventLoop();
        connecting.addListener((ChannelFutureListener) link::onConnected);
        return link;
    }

    @Override
    public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        if (state == State.CLOSED) {
            return SendStatus.FAILED;
        }
        ByteBuf frame = Frames.rsr(module.alloc(), module.config().maxFrame(), endpointId, handlerId, header, payload);
        outbox.offer(frame);
        try {
            scheduleDrain();
        } catch (RejectedExecutionException e) {
            state = State.CLOSED; // the module was shut down under us
            releaseOutbox();
            return SendStatus.FAILED;
        }
        // Closed meanwhile: the drain releases the frame instead of writing it, so it is not sent.
        return state == State.CLOSED ? SendStatus.FAILED : SendStatus.SENT;
    }

    @Override
    public String methodName() {
        return TcpModule.NAME;
    }

    public int peerRank() {
        return peerRank;
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            if (loop.inEventLoop()) {
                drain();
            } else {
                loop.execute(drainTask);
            }
        }
    }

    /** Event loop only. Writes queued frames in order (a bounded batch), then flushes once. */
    private void drain() {
        drainScheduled.set(false);
        if (state == State.CONNECTING) {
            return; // onConnected drains after the HELLO
        }
        if (state == State.CLOSED) {
            releaseOutbox();
            return;
        }
        int written = 0;
        ByteBuf frame;
        while (written < DRAIN_BATCH && (frame = outbox.poll()) != null) {
            channel.write(frame, channel.voidPromise());
            written++;
        }
        if (written > 0) {
            channel.flush();
        }
        if (written == DRAIN_BATCH && !outbox.isEmpty()) {
            scheduleDrainLater();
        }
    }

    private void scheduleDrainLater() {
        if (drainScheduled.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
    }

    private void onConnected(ChannelFuture connecting) {
        if (!connecting.isSuccess()) {
            fail("cannot connect to rank " + peerRank + " at " + address + ": "
                    + InboundConnection.describe(connecting.cause()));
            return;
        }
        if (state == State.CLOSED) {
            channel.close(); // shut down while connecting
            return;
        }
        var job = module.context();
        channel.write(Frames.hello(module.alloc(), new Hello(FrameLayout.PROTOCOL_VERSION, job.rank(), job.jobId(),
                job.secret())), channel.voidPromise());
        state = State.OPEN;
        drain();
        channel.flush(); // the HELLO, even when nothing was queued
    }

    /**
     * Event loop only, at shutdown: writes what is queued, then a BYE, then closes once those are on the wire.
     * Returns the close future.
     */
    ChannelFuture closeGracefully() {
        if (state == State.OPEN) {
            state = State.CLOSED;
            ByteBuf frame;
            while ((frame = outbox.poll()) != null) {
                channel.write(frame, channel.voidPromise());
            }
            channel.writeAndFlush(Frames.bye(module.alloc())).addListener(ChannelFutureListener.CLOSE);
        } else {
            state = State.CLOSED;
            channel.close();
            releaseOutbox();
        }
        return channel.closeFuture();
    }

    /** Event loop only: the link is dead; sends answer FAILED from now on. */
    private void fail(String reason) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        if (reason != null) {
            module.log(reason);
        }
        channel.close();
        releaseOutbox();
    }

    private void releaseOutbox() {
        ByteBuf frame;
        while ((frame = outbox.poll()) != null) {
            frame.release();
        }
    }

    /** Watches the connection: the peer sends nothing on it but a BYE before it leaves. */
    private final class ReplyHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            try {
                int start = frame.readerIndex();
                boolean bye = frame.readableBytes() >= IDS_LENGTH
                        && frame.getUnsignedShortLE(start + ENDPOINT_OFFSET) == CONTROL_ENDPOINT
                        && frame.getUnsignedShortLE(start + HANDLER_OFFSET) == BYE_HANDLER;
                if (bye) {
                    byeReceived = true;
                } else {
                    fail("closing connection to rank " + peerRank + " (" + address + "): it sent data on a send-only"
                            + " connection");
                }
            } finally {
                frame.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            boolean leaving = byeReceived || module.isShuttingDown();
            fail(leaving && cause instanceof IOException ? null
                    : "connection to rank " + peerRank + " (" + address + ") failed: "
                            + InboundConnection.describe(cause));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            boolean leaving = byeReceived || module.isShuttingDown();
            fail(leaving ? null : "connection to rank " + peerRank + " (" + address + ") closed unexpectedly");
            ctx.fireChannelInactive();
        }
    }
}
