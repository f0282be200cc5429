package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.BYE_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.CONTROL_ENDPOINT;
import static org.weft.mm.module.tcp.FrameLayout.ENDPOINT_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HANDLER_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HELLO_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.IDS_LENGTH;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The receiving end of one accepted connection: waits (a bounded time) for a HELLO that proves the job's secret,
 * then hands every RSR frame to the module's {@link org.weft.mm.spi.RsrSink}, on the event-loop thread, in stream
 * order. Anything wrong closes this connection only, with one line naming the remote address and the reason.
 * Not shared: one instance per connection, touched only by its event loop.
 */
final class InboundConnection extends ChannelInboundHandlerAdapter {
    private enum State { AWAITING_HELLO, OPEN, CLOSED }

    private final TcpModule module;
    private State state = State.AWAITING_HELLO;
    private int sourceRank = -1;
    /** The peer said BYE: the close that follows is normal. */
    private boolean byeReceived;
    private ScheduledFuture<?> handshakeDeadline;

    InboundConnection(TcpModule module) {
        this.module = module;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        int timeout = module.config().handshakeTimeoutMillis();
        handshakeDeadline = ctx.executor().schedule(
                () -> reject(ctx, "no valid HELLO within " + timeout + " ms"), timeout, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            onFrame(ctx, frame);
        } finally {
            frame.release();
        }
    }

    private void onFrame(ChannelHandlerContext ctx, ByteBuf frame) {
        if (state == State.CLOSED) {
            return; // frames decoded from the same read after we rejected the connection
        }
        if (frame.readableBytes() < IDS_LENGTH) {
            reject(ctx, "frame of " + frame.readableBytes() + " bytes is shorter than its ids");
            return;
        }
        int start = frame.readerIndex();
        int endpointId = frame.getUnsignedShortLE(start + ENDPOINT_OFFSET);
        int handlerId = frame.getUnsignedShortLE(start + HANDLER_OFFSET);
        if (state == State.AWAITING_HELLO) {
            onHello(ctx, frame.skipBytes(IDS_LENGTH), endpointId, handlerId);
        } else if (endpointId == CONTROL_ENDPOINT) {
            if (handlerId == BYE_HANDLER) {
                byeReceived = true;
            } else {
                reject(ctx, "unexpected control frame " + handlerId);
            }
        } else {
            ByteBuffer body = frame.nioBuffer(start + IDS_LENGTH, frame.readableBytes() - IDS_LENGTH)
                    .order(ByteOrder.LITTLE_ENDIAN);
            try {
                module.context().inbound().deliver(sourceRank, endpointId, handlerId, body);
            } catch (RuntimeException e) {
                reject(ctx, "RSR for endpoint " + endpointId + " handler " + handlerId + " rejected: " + describe(e));
            }
        }
    }

    private void onHello(ChannelHandlerContext ctx, ByteBuf body, int endpointId, int handlerId) {
        if (endpointId != CONTROL_ENDPOINT || handlerId != HELLO_HANDLER) {
            reject(ctx, "first frame is not a HELLO");
            return;
        }
        try {
            var job = module.context();
            sourceRank = Hello.verify(body, FrameLayout.PROTOCOL_VERSION, job.jobId(), job.secret(), job.size());
        } catch (Hello.RejectedHelloException e) {
            reject(ctx, e.getMessage());
            return;
        }
        state = State.OPEN;
        handshakeDeadline.cancel(false);
        ctx.pipeline().replace(TcpModule.FRAMES, TcpModule.FRAMES, module.newFrameDecoder());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (state == State.CLOSED) {
            return;
        }
        if (cause instanceof IOException && (byeReceived || module.isShuttingDown())) {
            state = State.CLOSED; // a reset while either side is leaving is part of leaving
            ctx.close();
            return;
        }
        reject(ctx, describe(cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
        }
        if (state != State.CLOSED && !byeReceived && !module.isShuttingDown()) {
            module.log(state == State.AWAITING_HELLO
                    ? "connection from " + ctx.channel().remoteAddress() + " closed before a HELLO"
                    : "connection from rank " + sourceRank + " (" + ctx.channel().remoteAddress()
                            + ") closed unexpectedly");
        }
        state = State.CLOSED;
        ctx.fireChannelInactive();
    }

    /** Closes this connection (only this one) and says why, once. */
    private void reject(ChannelHandlerContext ctx, String reason) {
        if (state == State.CLOSED) {
            return;
        }
        String who = state == State.OPEN ? "rank " + sourceRank + " (" + ctx.channel().remoteAddress() + ")"
                : String.valueOf(ctx.channel().remoteAddress());
        state = State.CLOSED;
        if (handshakeDeadline != null) {
            handshakeDeadline.cancel(false);
        }
        module.log("closing connection from " + who + ": " + reason);
        ctx.close();
    }

    static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + message;
    }
}
