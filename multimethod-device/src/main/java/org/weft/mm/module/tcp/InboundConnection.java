package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.CONTROL_ENDPOINT;
import static org.weft.mm.module.tcp.FrameLayout.ENDPOINT_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HANDLER_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HELLO_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.IDS_LENGTH;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The admission of one accepted connection, on its Netty event loop: waits (a bounded time) for a HELLO (or the
 * STRIPE_HELLO of a wide-area path's extra stream, which is read but never sent on) that
 * proves the job's secret, then stops Netty reading and hands the socket, with any bytes Netty had read past the
 * HELLO, to an {@link InboundStream} that the callers' threads poll. Nothing reaches the
 * {@link org.weft.mm.spi.RsrSink} before the HELLO is verified. Anything wrong before the hand-off closes this
 * connection only, with one line naming the remote address and the reason (throttled: strangers can flood). Not
 * shared: one instance per connection, touched only by its event loop.
 */
final class InboundConnection extends ChannelInboundHandlerAdapter {
    private enum State { AWAITING_HELLO, HANDED_OFF, CLOSED }

    private final TcpModule module;
    private State state = State.AWAITING_HELLO;
    private ScheduledFuture<?> handshakeDeadline;
    /** After the HELLO: the stream that reads the socket from now on. */
    private InboundStream stream;
    private boolean published;

    InboundConnection(TcpModule module) {
        this.module = module;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        long timeout = module.config().handshakeTimeoutMillis();
        handshakeDeadline = ctx.executor().schedule(() -> deadlinePassed(ctx, timeout), timeout,
                TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    /**
     * The handshake timeout passed without a HELLO: the connection closes, unless a peer announced a burst of stripes
     * (which set up slowly on a long or loaded path): then it waits out the burst's allowance too.
     */
    private void deadlinePassed(ChannelHandlerContext ctx, long allowedMillis) {
        long grace = TimeUnit.NANOSECONDS.toMillis(module.helloGraceLeftNanos());
        if (grace > 0 && state == State.AWAITING_HELLO) {
            handshakeDeadline = ctx.executor().schedule(() -> deadlinePassed(ctx, allowedMillis + grace), grace,
                    TimeUnit.MILLISECONDS);
            return;
        }
        reject(ctx, "no valid HELLO within " + allowedMillis + " ms");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf bytes = (ByteBuf) msg;
        try {
            if (state == State.AWAITING_HELLO) {
                onFirstFrame(ctx, bytes);
            } else if (state == State.HANDED_OFF && !published) {
                // Not a frame: the decoder, removed at the hand-off, passes on the raw bytes it held.
                stream.preload(bytes);
            }
            // CLOSED: frames decoded from the same read after we rejected the connection
        } finally {
            bytes.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // After the hand-off, Netty's last read and the decoder's leftover bytes are in the stream: publish it.
        if (state == State.HANDED_OFF && !published) {
            published = true;
            module.addInbound(stream);
        }
        ctx.fireChannelReadComplete();
    }

    private void onFirstFrame(ChannelHandlerContext ctx, ByteBuf frame) {
        if (frame.readableBytes() < IDS_LENGTH) {
            reject(ctx, "frame of " + frame.readableBytes() + " bytes is shorter than its ids");
            return;
        }
        int start = frame.readerIndex();
        int endpointId = frame.getUnsignedShortLE(start + ENDPOINT_OFFSET);
        int handlerId = frame.getUnsignedShortLE(start + HANDLER_OFFSET);
        boolean stripe = handlerId == FrameLayout.STRIPE_HELLO_HANDLER;
        if (endpointId != CONTROL_ENDPOINT || handlerId != HELLO_HANDLER && !stripe) {
            reject(ctx, "first frame is not a HELLO");
            return;
        }
        Hello hello;
        try {
            var job = module.context();
            hello = Hello.verify(frame.skipBytes(IDS_LENGTH), FrameLayout.PROTOCOL_VERSION, job.jobId(),
                    rank -> job.credentialsWith(rank).secret(), job.rankLimit(), job.rank(), module.seenNonces());
        } catch (Hello.RejectedHelloException e) {
            reject(ctx, e.getMessage());
            return;
        }
        handOff(ctx, hello, stripe);
    }

    /**
     * Stops Netty reading this socket (Netty's read loop ends after the current read and drops the read interest,
     * so the event loop is never woken for this connection again) and removes the frame decoder, which passes the
     * bytes it held past the HELLO to {@link #channelRead} as they are.
     */
    private void handOff(ChannelHandlerContext ctx, Hello hello, boolean stripe) {
        Channel channel = ctx.channel();
        Wire wire;
        try {
            wire = module.acceptedWire(hello, ((AcceptedChannels.Accepted) channel).socket());
        } catch (Hello.RejectedHelloException | IOException e) {
            reject(ctx, e.getMessage());
            return;
        }
        ((AcceptedChannels.Accepted) channel).handedTo(wire);
        int sourceRank = hello.rank();
        handshakeDeadline.cancel(false);
        ctx.channel().config().setAutoRead(false);
        String remote = ((AcceptedChannels.Accepted) channel).describeRemote();
        stream = new InboundStream(module, sourceRank, wire, remote, channel::close, stripe);
        if (stripe) {
            module.applyStripeWindow(((AcceptedChannels.Accepted) channel).socket(), sourceRank);
        } else { // a stripe carries the peer's chunks only: this process never sends on it
            module.adopt(sourceRank, TcpLink.adopt(module, sourceRank, wire, stream, remote, channel::close),
                    channel, stream);
        }
        state = State.HANDED_OFF;
        ctx.pipeline().remove(TcpModule.FRAMES);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (state != State.AWAITING_HELLO) {
            return; // after the hand-off the stream reads the socket and reports its failures
        }
        reject(ctx, describe(cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
        }
        if (state == State.AWAITING_HELLO && !module.isShuttingDown()) {
            String remote = String.valueOf(ctx.channel().remoteAddress());
            module.logStranger("connection from " + remote + " closed before a HELLO",
                    "from " + remote + ": closed before a HELLO");
        }
        if (stream != null) {
            stream.markClosed();
            module.removeInbound(stream);
        }
        state = State.CLOSED;
        ctx.fireChannelInactive();
    }

    /** Closes this connection (only this one) and says why, once. */
    private void reject(ChannelHandlerContext ctx, String reason) {
        if (state != State.AWAITING_HELLO) {
            return;
        }
        state = State.CLOSED;
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
        }
        String remote = String.valueOf(ctx.channel().remoteAddress());
        module.logStranger("closing connection from " + remote + ": " + reason, "from " + remote + ": " + reason);
        ctx.close();
    }

    static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + message;
    }
}
