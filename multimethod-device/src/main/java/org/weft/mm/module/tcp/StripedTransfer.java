package org.weft.mm.module.tcp;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.weft.mm.spi.BulkTransfer;
import org.weft.mm.spi.SendStatus;

/**
 * The striping of large messages to one peer over a wide-area path (MPWide's channels): the {@link BulkTransfer}
 * of the {@link TcpLink} to a rank of another site. Envelopes, requests to send and answers keep going on the
 * connection the pair shares, in order, so matching, probes, {@code ANY_SOURCE} and non-overtaking are those of any
 * tcp peer; only the data of a rendezvous message whose receiver started the transfer goes, in chunks that carry
 * their offset, over this side's stripes — connections it dials to the peer and uses in this direction only — and
 * is placed by the receiver ({@link StripeReceives}) as it comes, in any order.
 *
 * <p>A message's stream count is the path's ({@link WidePath#streamsFor}); the first striped message of an
 * auto-tuned path waits for the path's measurement ({@link PathProbe}). Chunks go to whichever of the message's
 * streams has written everything it had, so a stream slowed by a loss takes fewer. Nothing runs on a thread of its
 * own: sends and {@link TcpModule#poll()} move the chunks. A stream that fails ends every message queued here with
 * an error naming the path, and every later one; the peer hears of it (STRIPES_FAILED) and fails the striped
 * messages it is receiving from this process, so that no receive waits for bytes that will not come.
 */
final class StripedTransfer implements BulkTransfer {
    /** One message being sent: its data, streams, the next byte to hand to a stream, and who hears the end. */
    private static final class Outgoing {
        final long id;
        final MemorySegment data;
        final Listener listener;
        int streams;
        boolean started;
        long next;

        Outgoing(long id, MemorySegment data, Listener listener) {
            this.id = id;
            this.data = data;
            this.listener = listener;
        }
    }

    private final TcpModule module;
    private final int peer;
    private final TcpRoute route;
    private final WidePath path;
    private final ReentrantLock lock = new ReentrantLock();
    /** This side's connections to the peer, dialled as messages need them (under the lock). */
    private final List<TcpLink> stripes = new ArrayList<>();
    private final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
    /** The CHUNK head (id, offset), rewritten for each chunk (under the lock). */
    private final ByteBuffer chunkHead = ByteBuffer.allocate(FrameLayout.CHUNK_HEAD).order(ByteOrder.LITTLE_ENDIAN);
    /** The stream count the peer was last told to expect (STRIPES), under the lock. */
    private int announced;
    /** The path's measurement, when this side runs it. */
    private PathProbe probe;
    /** Messages queued, a stream still writing, or a probe: the module's poll calls {@link #progress}. */
    private volatile boolean active;
    private volatile String failure;
    /** Pacing: bytes that may go now (a token bucket of at most one chunk per stream) and when it was filled. */
    private long credit;
    private long creditTime = System.nanoTime();

    StripedTransfer(TcpModule module, int peer, TcpRoute route, WidePath path) {
        this.module = module;
        this.peer = peer;
        this.route = route;
        this.path = path;
    }

    WidePath path() {
        return path;
    }

    int peer() {
        return peer;
    }

    /** Messages of at least the path's {@code min} bytes are striped. */
    @Override
    public boolean carries(MemorySegment memory) {
        return memory.byteSize() >= Math.max(1, path.settings().min()) && failure == null;
    }

    @Override
    public void receive(long id, MemorySegment into, Listener listener) {
        module.stripeReceives().expect(peer, id, into, listener);
    }

    @Override
    public void cancelReceive(long id) {
        module.stripeReceives().cancel(id);
    }

    @Override
    public void send(long id, MemorySegment from, Listener listener) {
        send(id, from, 0, listener);
    }

    /** {@code streams}: what the sender's communicator asks for ({@code weft_streams}), 0 for the path's choice. */
    @Override
    public void send(long id, MemorySegment from, int streams, Listener listener) {
        lock.lock();
        try {
            if (failure == null) {
                Outgoing m = new Outgoing(id, from, listener);
                m.streams = Math.min(streams, PathSettings.MOST_STREAMS);
                queue.add(m);
                active = true;
                progress0();
                return;
            }
            tellPeerStripesFailed(); // the receiver has started this transfer: it must hear that nothing comes
        } finally {
            lock.unlock();
        }
        listener.failed(failure);
    }

    boolean isActive() {
        return active;
    }

    /**
     * A connection from the peer ended: if it was one of this side's stripes (which the peer may close before it
     * reads a byte, e.g. refusing its HELLO), the next poll finds it dead and fails the path, also when no message
     * is being sent (the last one's bytes may have been in that stripe's socket).
     */
    void connectionEnded() {
        active = true;
    }

    /** Any thread, never blocks: moves chunks to streams that took everything. Returns 1 when something moved. */
    int progress() {
        if (!active || !lock.tryLock()) {
            return 0;
        }
        try {
            return progress0();
        } finally {
            lock.unlock();
        }
    }

    /** The probe of this side heard the peer: a PONG, or the PROBE_RESULT of a phase ({@link PathProbe#answered}). */
    void answered(long what, long value) {
        lock.lock();
        try {
            if (probe != null) {
                probe.answered(what, value);
            }
        } finally {
            lock.unlock();
        }
    }

    private int progress0() {
        int work = 0;
        for (int i = 0; i < stripes.size(); i++) {
            TcpLink stripe = stripes.get(i);
            work += stripe.progress();
            if (stripe.isDead()) {
                failAll("wide-area path " + path.name() + ": stream " + i + " of " + stripes.size() + " to rank "
                        + peer + " (" + stripe.remote() + ") failed");
                return work;
            }
        }
        if (probe != null) {
            work += probe.step();
            if (!probe.finished()) {
                return work;
            }
            probe = null;
        }
        while (!queue.isEmpty()) {
            Outgoing head = queue.peek();
            if (head.streams == 0 && path.awaitsMeasurement()) {
                if (path.startMeasuring()) {
                    probe = new PathProbe(this, path);
                    return work + probe.step();
                }
                return work; // another link to the site measures it
            }
            if (!head.started) {
                head.started = true;
                boolean hinted = head.streams > 0;
                head.streams = hinted ? head.streams : path.streamsFor(head.data.byteSize());
                path.carried(head.data.byteSize(), head.streams, !hinted);
            }
            work += feed(head);
            if (head.next < head.data.byteSize()) {
                break;
            }
            queue.poll();
            head.listener.done(); // every byte is in a stream's queue or the kernel's: the memory is free
        }
        active = !queue.isEmpty() || probe != null || anyWriting();
        return work;
    }

    /** Hands chunks of {@code m} to its streams that have nothing queued, as pacing allows; returns chunks sent. */
    private int feed(Outgoing m) {
        int open = Math.min(m.streams, ensureStripes(m.streams, path.roundTrip()));
        int chunk = path.settings().chunk();
        int sent = 0;
        long size = m.data.byteSize();
        for (int i = 0; i < open && m.next < size; i++) {
            TcpLink stripe = stripes.get(i);
            int length = (int) Math.min(chunk, size - m.next);
            if (!stripe.isIdle() || !paced(length)) {
                continue;
            }
            chunkHead.clear();
            chunkHead.putLong(0, m.id).putLong(8, m.next);
            SendStatus status = sendChunk(stripe, FrameLayout.CHUNK_HANDLER, chunkHead,
                    m.data.asSlice(m.next, length));
            if (status != SendStatus.SENT) {
                continue; // a failed stream is noticed at the next pass
            }
            m.next += length;
            sent++;
        }
        return sent;
    }

    /** Sends one CHUNK or PROBE frame on {@code stripe}: {@code head} then {@code bytes}. */
    SendStatus sendChunk(TcpLink stripe, int handlerId, ByteBuffer head, MemorySegment bytes) {
        int frameLength = FrameLayout.HEADER_LENGTH + head.remaining() + (int) bytes.byteSize();
        return stripe.sendFrame(frameLength, FrameLayout.CONTROL_ENDPOINT, handlerId, head, bytes, 1);
    }

    /** Whether {@code length} more bytes may go under the path's pacing rate (always, without one). */
    private boolean paced(int length) {
        long rate = path.settings().pacing();
        if (rate <= 0) {
            return true;
        }
        long now = System.nanoTime();
        long cap = (long) path.settings().chunk() * path.settings().mostStreams();
        credit = Math.min(cap, credit + (long) ((now - creditTime) * (rate / 1e9)));
        creditTime = now;
        if (credit < 0) {
            return false;
        }
        credit -= length;
        return true;
    }

    /**
     * Under the lock: dials the next stream while fewer than {@code count} exist, one per call (a pass), so that the
     * ones dialled already connect and send their HELLOs meanwhile: making a TLS stream costs tens of ms on a loaded
     * machine, and with all 32 made in one go the first HELLO left 1.4 s after its connection was accepted (load 33).
     * Before a burst the peer hears how many come and the round trip {@code rttNanos} (0: not measured), so that it
     * gives their HELLOs the time a burst takes ({@link SetupAllowance}). Returns the streams that exist.
     */
    int ensureStripes(int count, long rttNanos) {
        int wanted = Math.min(count, PathSettings.MOST_STREAMS);
        if (stripes.size() < wanted && announced < wanted) {
            byte[] body = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(wanted - stripes.size())
                    .putLong(rttNanos).array();
            sendControl(FrameLayout.STRIPES_HANDLER, body);
            announced = wanted;
        }
        if (stripes.size() < wanted) {
            stripes.add(TcpLink.openStripe(module, peer, route, path.settings().window()));
        }
        return stripes.size();
    }

    /** Stream {@code i}, dialled by {@link #ensureStripes(int, long)}. */
    TcpLink stripe(int i) {
        return stripes.get(i);
    }

    /** The connection the pair shares, for control frames (PING). */
    boolean sendControl(int handlerId, byte[] body) {
        TcpLink primary = module.linkTo(peer);
        return primary != null && primary.sendControl(handlerId, body);
    }

    private boolean anyWriting() {
        for (TcpLink stripe : stripes) {
            if (stripe.needsProgress()) {
                return true;
            }
        }
        return false;
    }

    /** A stream failed: every message queued here, and every later one, fails with {@code why}. */
    private void failAll(String why) {
        if (failure == null) {
            failure = why;
            module.log(why);
        }
        probe = null;
        while (!queue.isEmpty()) {
            queue.poll().listener.failed(why);
        }
        tellPeerStripesFailed();
        active = false;
        if (path.measurement() == WidePath.Measurement.PROBING) {
            path.measurementFailed(why);
        }
    }

    /**
     * Under the lock, after a failure: tells the peer (STRIPES_FAILED on the pair's connection), which fails the
     * striped messages it is receiving from this process: bytes of them were lost on the failed stream or will not
     * be sent, and the peer may not even have seen the stream (closed before its HELLO was read).
     */
    private void tellPeerStripesFailed() {
        sendControl(FrameLayout.STRIPES_FAILED_HANDLER, failure.getBytes(StandardCharsets.UTF_8));
    }

    /** At shutdown: each stream writes what it has and a BYE, and closes. */
    void close() {
        lock.lock();
        try {
            for (TcpLink stripe : stripes) {
                stripe.closeGracefully();
            }
            active = false;
        } finally {
            lock.unlock();
        }
    }
}
