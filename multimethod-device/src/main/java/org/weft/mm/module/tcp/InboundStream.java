package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.BYE_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.COMPRESSED_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.CONTROL_ENDPOINT;
import static org.weft.mm.module.tcp.FrameLayout.ENDPOINT_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HANDLER_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HEADER_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.IDS_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.LENGTH_FIELD;
import static org.weft.mm.module.tcp.FrameLayout.MOVED_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.SWITCHED_HANDLER;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import org.weft.mm.spi.RsrSink;

/**
 * The receiving end of one connection to a peer — one this process accepted, after its HELLO proved the job's
 * secret, or one it dialled (the peer may answer on it: {@link TcpModule#adopt}) — read and delivered on the
 * caller's thread, during {@link TcpModule#poll()}, from the non-blocking socket. No event loop is involved, so an
 * arriving RSR costs no thread wake-up when a thread polls.
 *
 * <p>One thread at a time reads a stream (a try-lock; a thread that finds it busy moves on), so RSRs from one
 * sender are delivered one at a time, in stream order. The body handed to the sink is a window of the stream's own
 * buffer: no copy and no garbage per RSR. A frame that breaks the layout, an RSR the sink rejects, or an
 * unannounced close closes this connection only, with one line naming the sender.
 */
final class InboundStream {
    static final int INITIAL_CAPACITY = 64 * 1024;
    /** Reads per poll while a frame is incomplete: a large frame makes progress without hogging the caller. */
    private static final int MAX_READS_PER_POLL = 16;
    /** A buffer grown beyond this by a large frame is dropped once empty. */
    private static final int KEEP_CAPACITY = 16 << 20;

    private final TcpModule module;
    private final int sourceRank;
    /** The connection's bytes: the socket, or a layer over it. */
    private final Wire wire;
    /** Closes the connection: through Netty for an accepted one, so that Netty lets go of it too. */
    private final Runnable closer;
    private final String remote;
    /** A wide-area path's stripe (either end): the module reads it only while it can carry something. */
    private final boolean stripe;
    private final AtomicBoolean busy = new AtomicBoolean();
    /** The module's inbound sink, counting into this stream's own cell (written by the thread holding busy). */
    private final RsrSink sink;
    /** Received bytes not delivered yet, in read mode (position to limit); owned by the thread holding busy. */
    private ByteBuffer in = newBuffer(INITIAL_CAPACITY);
    private volatile boolean closed;
    private boolean byeReceived;
    /** Made by the first COMPRESSED frame (a peer whose path compresses); owned by the thread holding busy. */
    private Decompression decompression;

    InboundStream(TcpModule module, int sourceRank, Wire wire, String remote, Runnable closer, boolean stripe) {
        this.module = module;
        this.stripe = stripe;
        this.sourceRank = sourceRank;
        this.wire = wire;
        this.closer = closer;
        this.remote = remote;
        this.sink = module.context().inbound().countingIn(module.context().counters().newTraffic());
    }

    /** Before the stream is published: the bytes Netty had read past the HELLO, which come first. */
    void preload(ByteBuf bytes) {
        if (wire.preload(bytes.nioBuffer())) {
            return;
        }
        int length = bytes.readableBytes();
        ensureRoom(length);
        int at = in.limit();
        in.limit(at + length);
        bytes.getBytes(bytes.readerIndex(), in.duplicate().position(at));
    }

    /**
     * Delivers up to {@code budget} RSRs that have arrived, reading the socket as needed; returns how many. Any
     * thread; returns 0 at once when another thread is reading this stream.
     */
    int poll(int budget) {
        if (closed || !busy.compareAndSet(false, true)) {
            return 0;
        }
        try {
            return readAndDeliver(budget);
        } finally {
            busy.set(false);
        }
    }

    boolean isStripe() {
        return stripe;
    }

    boolean isClosed() {
        return closed;
    }

    /** The peer said BYE: a close or reset that follows is part of its leaving. */
    boolean byeReceived() {
        return byeReceived;
    }

    /** The connection, for the module's doorbell to watch. */
    SocketChannel socket() {
        return wire.socket();
    }

    /** The connection's bytes, which a link sending on the same connection writes. */
    Wire wire() {
        return wire;
    }

    /** Netty closed the channel (at shutdown): stop reading it. */
    void markClosed() {
        closed = true;
    }

    /** This process stops reading the connection (its sends moved to another one, and nothing else comes here). */
    void retire() {
        closed = true;
        module.removeInbound(this);
    }

    private int readAndDeliver(int budget) {
        int delivered = deliverComplete(budget);
        for (int reads = 0; reads < MAX_READS_PER_POLL && delivered < budget && !closed; reads++) {
            int frameLength = nextFrameLength();
            if (closed) {
                break;
            }
            int n;
            try {
                ensureRoom(frameLength);
                int readIndex = in.position();
                in.position(in.limit()).limit(in.capacity());
                n = wire.read(in);
                in.limit(in.position()).position(readIndex);
            } catch (IOException e) {
                onReadFailure(e);
                break;
            }
            if (n < 0) {
                onEndOfStream();
                break;
            }
            if (n == 0) {
                break;
            }
            delivered += deliverComplete(budget - delivered);
            if (!in.hasRemaining() && !wire.hasBufferedInput()) {
                break; // nothing partial left: the next read would most likely find nothing
            }
        }
        return delivered;
    }

    /** Delivers the complete frames in the buffer, at most {@code budget} RSRs. */
    private int deliverComplete(int budget) {
        int delivered = 0;
        while (delivered < budget && !closed) {
            int frameStart = in.position();
            int end = in.limit();
            if (end - frameStart < LENGTH_FIELD) {
                break;
            }
            int frameLength = checkedFrameLength(in.getInt(frameStart));
            if (frameLength < 0 || end - frameStart < frameLength) {
                break;
            }
            int frameEnd = frameStart + frameLength;
            int endpointId = in.getShort(frameStart + LENGTH_FIELD + ENDPOINT_OFFSET) & 0xFFFF;
            int handlerId = in.getShort(frameStart + LENGTH_FIELD + HANDLER_OFFSET) & 0xFFFF;
            if (endpointId == CONTROL_ENDPOINT && handlerId != COMPRESSED_HANDLER) {
                if (!takeControl(handlerId, frameStart + HEADER_LENGTH, frameEnd)) {
                    in.limit(end).position(frameStart);
                    break;
                }
                in.limit(end).position(frameEnd);
                continue;
            }
            try {
                if (endpointId == CONTROL_ENDPOINT) {
                    deliverCompressed(frameStart, frameEnd);
                } else {
                    in.limit(frameEnd).position(frameStart + HEADER_LENGTH);
                    sink.deliver(sourceRank, endpointId, handlerId, in);
                }
            } catch (RuntimeException e) {
                reject((endpointId == CONTROL_ENDPOINT ? "compressed frame" : "RSR for endpoint " + endpointId
                        + " handler " + handlerId) + " rejected: " + InboundConnection.describe(e));
                break;
            } finally {
                in.order(ByteOrder.LITTLE_ENDIAN).limit(end).position(frameEnd);
            }
            delivered++;
        }
        if (!in.hasRemaining()) {
            in.position(0).limit(0); // empty: small frames start at offset 0 again
            if (in.capacity() > KEEP_CAPACITY) {
                in = newBuffer(INITIAL_CAPACITY);
            }
        }
        return delivered;
    }

    /** Delivers the RSR inside the COMPRESSED frame {@code in[frameStart, frameEnd)}. */
    private void deliverCompressed(int frameStart, int frameEnd) {
        if (decompression == null) {
            decompression = new Decompression();
        }
        ByteBuffer frame = decompression.unpack(in, frameStart, frameEnd, module.config().maxFrame());
        int endpointId = frame.getShort(LENGTH_FIELD + ENDPOINT_OFFSET) & 0xFFFF;
        int handlerId = frame.getShort(LENGTH_FIELD + HANDLER_OFFSET) & 0xFFFF;
        sink.deliver(sourceRank, endpointId, handlerId, frame.position(HEADER_LENGTH));
    }

    /**
     * Acts on a control frame; false when delivery stops before it: a SWITCHED whose MOVED has not come yet (the
     * sender's RSRs on its retired connection come first), or a frame the layout does not have (the connection is
     * closed).
     */
    private boolean takeControl(int handlerId, int bodyStart, int bodyEnd) {
        switch (handlerId) {
            case BYE_HANDLER -> byeReceived = true;
            case MOVED_HANDLER -> {
                byeReceived = true; // the sender closes this connection next, as after a BYE
                module.moved(sourceRank);
            }
            case SWITCHED_HANDLER -> {
                return module.takeMove(sourceRank);
            }
            default -> {
                return pathControl(handlerId, bodyStart, bodyEnd);
            }
        }
        return true;
    }

    /** A control frame of the wide-area paths (a CHUNK, a probe, a ping); false when it broke the layout. */
    private boolean pathControl(int handlerId, int bodyStart, int bodyEnd) {
        int end = in.limit();
        in.limit(bodyEnd).position(bodyStart);
        try {
            module.control(sourceRank, handlerId, in);
            return true;
        } catch (RuntimeException e) {
            reject(handlerId == FrameLayout.CHUNK_HANDLER ? InboundConnection.describe(e)
                    : "control frame " + handlerId + ": " + InboundConnection.describe(e));
            return false;
        } finally {
            in.order(ByteOrder.LITTLE_ENDIAN).limit(end);
        }
    }

    /** The size of the frame at the read position when its length field is there, else the smallest frame. */
    private int nextFrameLength() {
        if (in.remaining() < LENGTH_FIELD) {
            return HEADER_LENGTH;
        }
        int length = checkedFrameLength(in.getInt(in.position()));
        return length < 0 ? HEADER_LENGTH : length;
    }

    /**
     * The total size of a frame from its length field, or -1 after rejecting the connection when the field is
     * below the ids' size or the frame exceeds {@code tcp_max_frame}.
     */
    private int checkedFrameLength(int lengthField) {
        if (lengthField < IDS_LENGTH) {
            reject("frame of " + lengthField + " bytes is shorter than its ids");
            return -1;
        }
        long total = (long) lengthField + LENGTH_FIELD;
        if (total > module.config().maxFrame()) {
            reject(InboundConnection.describe(new TooLongFrameException("frame of " + total
                    + " bytes exceeds tcp_max_frame (" + module.config().maxFrame() + ")")));
            return -1;
        }
        return (int) total;
    }

    /** Room after the unread bytes for a frame of {@code frameLength} bytes: slides them to the front or grows. */
    private void ensureRoom(int frameLength) {
        int readIndex = in.position();
        int unread = in.remaining();
        int needed = Math.max(frameLength, unread + 1);
        if (in.capacity() - readIndex >= needed && in.limit() < in.capacity()) {
            return;
        }
        if (in.capacity() >= needed) {
            in.compact().flip();
        } else {
            ByteBuffer bigger = newBuffer(needed);
            bigger.limit(unread).put(0, in, readIndex, unread);
            in = bigger;
        }
    }

    private void onEndOfStream() {
        if (!byeReceived && !module.isShuttingDown()) {
            String why = "connection from rank " + sourceRank + " (" + remote + ") closed unexpectedly";
            module.log(why);
            module.connectionLost(sourceRank, why, this);
        }
        close();
    }

    private void onReadFailure(IOException e) {
        if (byeReceived || module.isShuttingDown() || closed) {
            close(); // a reset while either side is leaving is part of leaving
        } else {
            reject(InboundConnection.describe(e));
        }
    }

    /** Closes this connection (only this one) and says why, once. */
    private void reject(String reason) {
        if (closed) {
            return;
        }
        String why = "closing connection from rank " + sourceRank + " (" + remote + "): " + reason;
        module.log(why);
        close();
        module.connectionLost(sourceRank, why, this);
    }

    private void close() {
        closed = true;
        module.removeInbound(this);
        closer.run();
    }

    private static ByteBuffer newBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN).limit(0);
    }
}
