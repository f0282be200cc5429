package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.BYE_HANDLER;
import static org.weft.mm.module.tcp.FrameLayout.CONTROL_ENDPOINT;
import static org.weft.mm.module.tcp.FrameLayout.ENDPOINT_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HANDLER_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HEADER_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.IDS_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.LENGTH_FIELD;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;

/**
 * The sending side of the {@code tcp} method to one peer: one connection this process initiated, on which it only
 * sends (the peer receives on the connection it accepted), so one sender's RSRs keep one TCP stream's order.
 *
 * <p>No thread hand-off: {@link #send} runs on the caller's thread, under this link's lock, appends the frame to an
 * {@link OutboundBuffer} and writes it to the non-blocking socket at once. What the socket does not take (a full
 * socket buffer, a connection still being made) stays queued, in order, and is written by later sends or by
 * {@link TcpModule#poll()} on whichever thread polls. The HELLO is the first thing queued, so nothing can precede
 * it on the wire.
 *
 * <p>The peer sends nothing on this connection but a BYE before it leaves; {@link #checkReplies()} (called every
 * few polls) reads it, and notices a connection the peer closed or broke. A write that fails marks the link dead
 * too: sends answer {@link SendStatus#FAILED} from then on.
 *
 * <p>Back-pressure: the queue is unbounded and {@code send} never answers {@link SendStatus#BACK_PRESSURED}; a
 * sender faster than the network grows memory. A bounded queue (answering BACK_PRESSURED above a watermark) is
 * future work.
 */
public final class TcpLink implements CommObject {
    private enum State { CONNECTING, OPEN, CLOSED }

    /** How long {@link #closeGracefully()} keeps writing what is queued before it gives up. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Native payloads from this size on are written from the caller's memory (gathering write), not copied. */
    static final long GATHER_THRESHOLD = 32 * 1024;

    private final TcpModule module;
    private final int peerRank;
    private final TcpAddress address;
    private final SocketChannel channel;
    private final long connectDeadline;
    /** Guards {@link #out}, {@link #replies}, the socket's writes and reads, and state changes. */
    private final ReentrantLock lock = new ReentrantLock();
    private final OutboundBuffer out = new OutboundBuffer();
    /** Bytes the peer sent back (only BYE is legal), little-endian, kept in read mode between checks. */
    private final ByteBuffer replies = ByteBuffer.allocate(2 * HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN).flip();
    private volatile State state = State.CONNECTING;
    /** Queued bytes or a connection under way: {@link TcpModule#poll()} should call {@link #progress()}. */
    private volatile boolean needsProgress = true;
    /** The peer said BYE: its close that follows is normal. Under {@link #lock}. */
    private boolean byeReceived;

    private TcpLink(TcpModule module, int peerRank, TcpAddress address, SocketChannel channel) {
        this.module = module;
        this.peerRank = peerRank;
        this.address = address;
        this.channel = channel;
        this.connectDeadline = System.nanoTime()
                + TimeUnit.MILLISECONDS.toNanos(module.config().connectTimeoutMillis());
    }

    /** Starts connecting to {@code address} without waiting for it; the HELLO is queued first. */
    static TcpLink open(TcpModule module, int peerRank, TcpAddress address) {
        SocketChannel channel;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            applySocketOptions(channel, module.config());
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a tcp socket: " + e.getMessage(), e);
        }
        TcpLink link = new TcpLink(module, peerRank, address, channel);
        var job = module.context();
        link.out.append(Frames.helloBytes(new Hello(FrameLayout.PROTOCOL_VERSION, job.rank(), job.jobId(),
                job.secret())));
        link.lock.lock();
        try {
            channel.connect(new InetSocketAddress(address.host(), address.port()));
            link.progress0();
        } catch (IOException | RuntimeException e) { // includes an unresolvable host
            link.failConnect(e);
        } finally {
            link.lock.unlock();
        }
        return link;
    }

    private static void applySocketOptions(SocketChannel channel, TcpConfig config) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        if (config.sndbuf() > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, config.sndbuf());
        }
        if (config.rcvbuf() > 0) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, config.rcvbuf());
        }
    }

    @Override
    public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        if (state == State.CLOSED) {
            return SendStatus.FAILED;
        }
        int frameLength = Frames.rsrLength(module.config().maxFrame(), endpointId, handlerId, header, payload);
        lock.lock();
        try {
            if (state == State.CLOSED) {
                return SendStatus.FAILED;
            }
            if (state == State.OPEN && payload.isNative() && payload.byteSize() >= GATHER_THRESHOLD) {
                writeGathered(frameLength, endpointId, handlerId, header, payload);
            } else {
                out.appendRsr(frameLength, endpointId, handlerId, header, payload);
                progress0();
            }
            // A write that failed just now took the frame with it: it is not sent.
            return state == State.CLOSED ? SendStatus.FAILED : SendStatus.SENT;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String methodName() {
        return TcpModule.NAME;
    }

    public int peerRank() {
        return peerRank;
    }

    boolean needsProgress() {
        return needsProgress;
    }

    /**
     * Any thread, never blocks: finishes the connection and writes what is queued, unless another thread holds
     * the link (it does the same). Returns 1 when bytes went out, else 0.
     */
    int progress() {
        if (!lock.tryLock()) {
            return 0;
        }
        try {
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
            out.writeWithTail(channel, payload.asByteBuffer());
        } catch (IOException e) {
            failWrite(e);
        }
        needsProgress = state == State.OPEN && !out.isEmpty();
    }

    /** Under the lock. Returns the bytes written. */
    private int progress0() {
        int written = 0;
        if (state == State.CONNECTING) {
            finishConnect();
        }
        if (state == State.OPEN && !out.isEmpty()) {
            try {
                written = out.writeTo(channel);
            } catch (IOException e) {
                failWrite(e);
            }
        }
        needsProgress = state == State.CONNECTING || state == State.OPEN && !out.isEmpty();
        return written;
    }

    private void finishConnect() {
        try {
            if (channel.finishConnect()) {
                state = State.OPEN;
            } else if (System.nanoTime() - connectDeadline > 0) {
                fail("cannot connect to rank " + peerRank + " at " + address + ": no answer within "
                        + module.config().connectTimeoutMillis() + " ms");
            }
        } catch (IOException e) {
            failConnect(e);
        }
    }

    /**
     * Any thread, never blocks: reads what the peer sent back, a BYE or nothing; notices a close or garbage.
     * Skipped when another thread holds the link.
     */
    void checkReplies() {
        if (state != State.OPEN || !lock.tryLock()) {
            return;
        }
        try {
            readReplies();
        } finally {
            lock.unlock();
        }
    }

    private void readReplies() {
        while (state == State.OPEN) {
            int n;
            try {
                replies.compact();
                n = channel.read(replies);
                replies.flip();
            } catch (IOException e) {
                fail(leaving() ? null : "connection to rank " + peerRank + " (" + address + ") failed: "
                        + InboundConnection.describe(e));
                return;
            }
            if (n < 0) {
                fail(leaving() ? null : "connection to rank " + peerRank + " (" + address + ") closed unexpectedly");
                return;
            }
            while (replies.remaining() >= HEADER_LENGTH) {
                int at = replies.position();
                boolean bye = replies.getInt(at) == IDS_LENGTH
                        && replies.getShort(at + LENGTH_FIELD + ENDPOINT_OFFSET) == (short) CONTROL_ENDPOINT
                        && replies.getShort(at + LENGTH_FIELD + HANDLER_OFFSET) == BYE_HANDLER;
                if (!bye) {
                    fail("closing connection to rank " + peerRank + " (" + address + "): it sent data on a send-only"
                            + " connection");
                    return;
                }
                byeReceived = true;
                replies.position(at + HEADER_LENGTH);
            }
            if (n == 0) {
                return;
            }
        }
    }

    private boolean leaving() {
        return byeReceived || module.isShuttingDown();
    }

    /**
     * At shutdown: writes what is queued and a BYE (waiting a bounded time for a slow socket), reads what the peer
     * sent back so that the close is a clean FIN rather than a reset, and closes.
     */
    void closeGracefully() {
        lock.lock();
        try {
            if (state == State.OPEN) {
                out.append(Frames.byeBytes());
                long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
                while (state == State.OPEN && !out.isEmpty() && System.nanoTime() - deadline < 0) {
                    if (progress0() == 0) {
                        LockSupport.parkNanos(100_000);
                    }
                }
                if (state == State.OPEN) {
                    readReplies();
                }
            }
            state = State.CLOSED;
            needsProgress = false;
            closeQuietly();
        } finally {
            lock.unlock();
        }
    }

    private void failConnect(Exception e) {
        fail("cannot connect to rank " + peerRank + " at " + address + ": " + InboundConnection.describe(e));
    }

    private void failWrite(IOException e) {
        fail(leaving() ? null : "connection to rank " + peerRank + " (" + address + ") failed: "
                + InboundConnection.describe(e));
    }

    /** Under the lock: the link is dead; sends answer FAILED from now on. {@code reason} null: say nothing. */
    private void fail(String reason) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        needsProgress = false;
        if (reason != null) {
            module.log(reason);
        }
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
