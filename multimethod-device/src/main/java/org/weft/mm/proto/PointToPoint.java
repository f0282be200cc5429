package org.weft.mm.proto;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceMessage;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.ProbeResult;
import org.weft.adi.Ranks;
import org.weft.adi.SendMode;
import org.weft.adi.jfr.Jfr;
import org.weft.adi.jfr.Rendezvous;
import org.weft.adi.jfr.WeftEvents;
import org.weft.adi.param.Parameter;
import org.weft.mm.Context;
import org.weft.mm.RsrHandler;
import org.weft.mm.SendCompletion;
import org.weft.adi.concurrent.CachedThreadLocal;
import org.weft.adi.concurrent.SpinLock;
import org.weft.mm.Startpoint;
import org.weft.mm.match.MatchingEngine;
import org.weft.mm.match.RecvRequest;
import org.weft.mm.match.UnexpectedMessage;
import org.weft.mm.match.UnexpectedPool;
import org.weft.mm.progress.Waiters;
import org.weft.mm.select.Link;
import org.weft.mm.spi.BulkTransfer;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.MalformedRsrException;
import org.weft.mm.spi.SingleCopy;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * MPI point-to-point over RSRs. The sender side picks eager (envelope and data in one RSR) up to the selected
 * method's eager limit and rendezvous (RTS, then the data in fragments after the receiver's CTS) above it; the
 * receiving side is the <em>enqueue message</em> handler, which matches arrivals against posted receives through
 * the one {@link MatchingEngine} or queues them as unexpected.
 *
 * <p>Rendezvous data goes in fragments of at most {@link #FRAGMENT_SIZE} (and of what the method takes in one RSR),
 * so that a large message is pipelined through a method's buffers and every copy stays cache-sized.
 *
 * <p>Threading: arrivals run on whichever thread a module delivers on; the engine's lock orders each
 * look-up-then-insert against the others. Data is copied outside the lock, into a receive already removed
 * from the posted queue.
 */
public final class PointToPoint implements RsrHandler {
    /** The handler id of <em>enqueue message</em> on the MPI endpoint. */
    public static final int ENQUEUE_MESSAGE = 0;

    public static final Parameter<Long> FRAGMENT_SIZE = Parameter.bytes("rndv_fragment_size", 256 * 1024,
            "largest piece of rendezvous data sent in one RSR (the method's own limit may be lower)");

    private static final MemorySegment NO_PAYLOAD = MemorySegment.ofArray(new byte[0]);
    /** The communicator info key that sets the streams of its messages over wide-area paths. */
    public static final String STREAMS_HINT = "weft_streams";
    /** Per point-to-point context, the streams its communicator's {@value #STREAMS_HINT} asks for. */
    private final ConcurrentHashMap<Integer, Integer> streamHints = new ConcurrentHashMap<>();

    private final Context context;
    private final Waiters waiters;
    private final long fragmentSize;
    private final MatchingEngine engine = new MatchingEngine();
    /** Orders each look-up-then-insert on the engine against the others (never held across a call out). */
    private final SpinLock engineLock = new SpinLock();
    /** Small unexpected messages for reuse; under {@link #engineLock}. */
    private final UnexpectedPool unexpectedPool = new UnexpectedPool();
    private final ConcurrentHashMap<Long, SendRequest> sendsAwaitingReceiver = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, RecvRequest> receivesAwaitingData = new ConcurrentHashMap<>();
    private final AtomicLong requestIds = new AtomicLong();
    /**
     * Peers whose connection was lost for good, and why (a line naming the peer): their operations fail. Empty in a
     * healthy job, where the checks below cost one read of an empty map's size.
     */
    private final ConcurrentHashMap<Integer, String> lostPeers = new ConcurrentHashMap<>();
    private final CachedThreadLocal<PerThread> perThread;
    /** Retired requests kept per thread and kind: enough for the requests one exchange step has in flight. */
    static final int RETIRED_PER_THREAD = 16;

    public PointToPoint(Context context, Waiters waiters, long fragmentSize) {
        this.context = context;
        this.waiters = waiters;
        this.fragmentSize = fragmentSize;
        this.perThread = new CachedThreadLocal<>(() -> new PerThread(waiters));
    }

    /**
     * What each thread keeps for itself: the requests of its blocking calls (only it waits for them, so they
     * complete without a fence when it completes them itself), its header buffer and its view of RSR bodies.
     */
    private static final class PerThread {
        final SendRequest send;
        final RecvRequest recv;
        final ByteBuffer header = ByteBuffer.allocate(MessageHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        final BodyView bodyView = new BodyView();
        /** Requests of nonblocking operations that the API has taken for good, for this thread's next ones. */
        final ArrayDeque<SendRequest> retiredSends = new ArrayDeque<>(RETIRED_PER_THREAD);
        final ArrayDeque<RecvRequest> retiredRecvs = new ArrayDeque<>(RETIRED_PER_THREAD);

        PerThread(Waiters waiters) {
            Thread owner = Thread.currentThread();
            this.send = new SendRequest(waiters, owner);
            this.recv = new RecvRequest(waiters, owner);
            // idle from the start: only a request that is not in flight is handed out for reuse
            send.complete(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 0, ErrorClass.SUCCESS);
            recv.complete(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 0, ErrorClass.SUCCESS);
        }
    }

    /**
     * Starts a send, reusing {@code reusable} — a request of this device that is complete and that nobody will
     * read any more: a persistent send's previous one, or this thread's {@link #reusableSend()} — or, when it is
     * {@code null} or still has reports due ({@link SendRequest#isSettled}), one {@linkplain #retire retired} on
     * this thread, or a new one. Reused requests keep steady streams of sends free of garbage.
     */
    public DeviceRequest startSend(DeviceRequest reusable, MemorySegment data, int dest, int tag, int ctx,
                                   SendMode mode) {
        SendRequest send = reusable instanceof SendRequest s && s.isSettled() ? s : retiredOrNewSend();
        return startWith(send, data, dest, tag, ctx, mode);
    }

    /** As {@link #startSend}, for a receive. */
    public DeviceRequest startRecv(DeviceRequest reusable, MemorySegment buffer, int source, int tag, int ctx) {
        RecvRequest receive = reusable instanceof RecvRequest r ? r : retiredOrNewRecv();
        return post(receive.prepare(buffer, source, tag, ctx));
    }

    /**
     * Whether no peer can be waiting for this process's progress on this layer's account: no receive is posted (a
     * sender's rendezvous or synchronous send waits for its match; a one-sided window's service posts one) or
     * awaiting its data, and no send awaits its receiver's answer.
     */
    public boolean idle() {
        if (!sendsAwaitingReceiver.isEmpty() || !receivesAwaitingData.isEmpty()) {
            return false;
        }
        engineLock.lock();
        try {
            return engine.postedCount() == 0;
        } finally {
            engineLock.unlock();
        }
    }

    /**
     * This thread's request for blocking sends, which read their status before the thread's next one; {@code null}
     * while it is in flight (a blocking call that ended by an exception left it so): the send then makes a new one.
     */
    public DeviceRequest reusableSend() {
        SendRequest send = perThread.get().send;
        return send.isSettled() ? send : null;
    }

    /** This thread's request for blocking receives; {@code null} while in flight, as {@link #reusableSend()}'s. */
    public DeviceRequest reusableRecv() {
        RecvRequest recv = perThread.get().recv;
        return recv.isComplete() ? recv : null;
    }

    /**
     * Keeps {@code request}, which its caller will read no more, for this thread's next nonblocking operation of the
     * same kind (up to {@link #RETIRED_PER_THREAD} of each): only a complete request of this device that serves any
     * thread (not a thread's own blocking request, which stays with its thread), and a send only once no RSR of it
     * will report to it any more ({@link SendRequest#isSettled}).
     */
    public void retire(DeviceRequest request) {
        if (!request.isComplete()) {
            return;
        }
        if (request instanceof SendRequest send && send.servesAnyThread() && send.isSettled()) {
            keep(perThread.get().retiredSends, send);
        } else if (request instanceof RecvRequest receive && receive.servesAnyThread()) {
            keep(perThread.get().retiredRecvs, receive);
        }
    }

    private static <R extends DeviceRequest> void keep(ArrayDeque<R> retired, R request) {
        if (retired.size() < RETIRED_PER_THREAD) {
            retired.push(request);
        }
    }

    /** A send request {@linkplain #retire retired} on this thread, or a new one. */
    private SendRequest retiredOrNewSend() {
        SendRequest send = perThread.get().retiredSends.poll();
        return send != null ? send : new SendRequest(waiters);
    }

    /** A receive request {@linkplain #retire retired} on this thread, or a new one. */
    private RecvRequest retiredOrNewRecv() {
        RecvRequest receive = perThread.get().retiredRecvs.poll();
        return receive != null ? receive : new RecvRequest(waiters);
    }

    private DeviceRequest startWith(SendRequest request, MemorySegment data, int dest, int tag, int ctx,
                                    SendMode mode) {
        String lost = lostPeers.isEmpty() ? null : lostPeers.get(dest);
        if (lost != null) {
            request.prepare(data, dest, tag, false);
            request.completeFailed(dest, tag, ErrorClass.ERR_OTHER, lost);
            return request;
        }
        Startpoint peer = context.startpoint(dest);
        long length = data.byteSize();
        boolean eager = length <= eagerLimit(peer.link());
        boolean sync = mode == SendMode.SYNCHRONOUS;
        request.prepare(data, dest, tag, eager && !sync);
        if (Jfr.ON) {
            String method = peer.link().module().name();
            WeftEvents.sent(dest, tag, ctx, length, method, eager ? sync ? "synchronous" : "eager" : "rendezvous");
            request.rendezvous = eager ? null : WeftEvents.rendezvousBegins("sender", dest, length, method);
        }
        if (eager && !sync) {
            peer.send(ENQUEUE_MESSAGE, header(MessageHeader.EAGER, (byte) 0, ctx, tag, length, 0, 0), data, request);
        } else if (eager) {
            long id = awaitReceiver(request);
            peer.send(ENQUEUE_MESSAGE, header(MessageHeader.EAGER, MessageHeader.FLAG_SYNC, ctx, tag, length, id, 0),
                    data, request.failureReporter());
        } else {
            long id = awaitReceiver(request);
            request.streams = streamHints.isEmpty() ? 0 : streamHints.getOrDefault(ctx, 0);
            CommObject link = peer.link().object();
            BulkTransfer bulk = link.bulk();
            SingleCopy single = link.singleCopy();
            byte flags = bulk != null && bulk.carries(data) ? MessageHeader.FLAG_BULK : 0;
            long pull = single != null && single.offers(data) ? data.address() : 0; // RTS has no receiver id yet
            flags |= pull != 0 ? MessageHeader.FLAG_PULL : 0;
            peer.send(ENQUEUE_MESSAGE, header(MessageHeader.RTS, flags, ctx, tag, length, id, pull), NO_PAYLOAD,
                    request.failureReporter());
        }
        return request;
    }

    /** The method this process sends to {@code source} by (the one that carried its message, as a rule). */
    private String methodFrom(int source) {
        return context.startpoint(source).link().module().name();
    }

    /** Matches a receive against the unexpected messages, or posts it. */
    private DeviceRequest post(RecvRequest request) {
        UnexpectedMessage arrived;
        String lost = null;
        engineLock.lock();
        try {
            arrived = engine.takeUnexpected(request.wantedSource(), request.wantedTag(), request.context());
            if (arrived == null) {
                lost = lostPeers.isEmpty() ? null : lostPeerOf(request.wantedSource());
                if (lost == null) {
                    engine.addPosted(request);
                }
            }
        } finally {
            engineLock.unlock();
        }
        if (lost != null) {
            request.completeFailed(request.wantedSource(), request.wantedTag(), ErrorClass.ERR_OTHER, lost);
            return request;
        }
        if (arrived != null) {
            receiveMatched(request, arrived);
            if (arrived.isPooled()) { // the others (rendezvous, larger) need not take the lock again
                engineLock.lock();
                try {
                    unexpectedPool.recycle(arrived); // no one else has it: taken from the queue, never handed out
                } finally {
                    engineLock.unlock();
                }
            }
        }
        return request;
    }

    /**
     * A communicator's info hints: {@code weft_streams} ({@code auto} or a count) sets the streams its large
     * messages take over a wide-area path; other keys are not this layer's.
     */
    public void hint(int ctx, Map<String, String> hints) {
        String streams = hints.get(STREAMS_HINT);
        if (streams == null || streams.equalsIgnoreCase("auto")) {
            streamHints.remove(ctx);
            return;
        }
        try {
            int n = Integer.parseInt(streams.strip());
            if (n > 0) {
                streamHints.put(ctx, n);
            }
        } catch (NumberFormatException e) {
            // an info value Weft cannot use is ignored, as MPI wants of hints
        }
    }

    /** A message the pattern matches, or null; fails when none came and a peer it could come from was lost. */
    public ProbeResult iprobe(int source, int tag, int ctx) {
        UnexpectedMessage m;
        engineLock.lock();
        try {
            m = engine.findUnexpected(source, tag, ctx);
            if (m != null) {
                return new ProbeResult(m.source(), m.tag(), m.byteCount());
            }
        } finally {
            engineLock.unlock();
        }
        failIfLost(source);
        return null;
    }

    /** As {@link #iprobe}, taking the message out of matching. */
    public DeviceMessage improbe(int source, int tag, int ctx) {
        UnexpectedMessage m;
        engineLock.lock();
        try {
            m = engine.takeUnexpected(source, tag, ctx);
        } finally {
            engineLock.unlock();
        }
        if (m == null) {
            failIfLost(source);
        }
        return m;
    }

    /** A probe that found nothing from {@code source}: it would wait forever if that peer is lost. */
    private void failIfLost(int source) {
        if (!lostPeers.isEmpty()) {
            String why = lostPeerOf(source);
            if (why != null) {
                throw new DeviceException(ErrorClass.ERR_OTHER, why);
            }
        }
    }

    /**
     * Why a receive from {@code source} can never be satisfied when nothing from it has come yet: that peer was
     * lost, or — for {@code ANY_SOURCE} — some peer was (it may be the one the receive waits for; MPI's fault
     * tolerance does the same to wildcard receives until the loss is acknowledged, which Weft has no call for).
     * Null when no lost peer concerns it.
     */
    private String lostPeerOf(int source) {
        if (source == Ranks.ANY_SOURCE) {
            var first = lostPeers.entrySet().stream().findFirst();
            return first.map(e -> e.getValue() + " (a receive from any source might have waited for it)")
                    .orElse(null);
        }
        return lostPeers.get(source);
    }

    /**
     * {@code peer}'s connection was lost for good ({@code why} names it): every operation waiting on it fails now —
     * receives posted for it or for any source, rendezvous receives waiting for its data, sends waiting for its
     * answer (a CTS, a synchronous send's acknowledgement) — and probes and operations started later fail too.
     * Whatever it sent before is still there to be received.
     */
    public void peerLost(int peer, String why) {
        if (lostPeers.putIfAbsent(peer, why) != null) {
            return;
        }
        List<RecvRequest> receives = new ArrayList<>();
        engineLock.lock();
        try {
            engine.removePostedFrom(peer, receives);
        } finally {
            engineLock.unlock();
        }
        for (RecvRequest r : receives) {
            r.completeFailed(r.wantedSource(), r.wantedTag(), ErrorClass.ERR_OTHER,
                    r.wantedSource() == peer ? why : lostPeerOf(Ranks.ANY_SOURCE));
        }
        receivesAwaitingData.forEach((id, r) -> {
            if (r.matchedSource() == peer && receivesAwaitingData.remove(id, r)) {
                r.completeFailed(peer, r.matchedTag(), ErrorClass.ERR_OTHER, why);
            }
        });
        sendsAwaitingReceiver.forEach((id, send) -> {
            if (send.dest == peer && sendsAwaitingReceiver.remove(id, send)) {
                send.receiverLost(why);
            }
        });
        waiters.wakeWatchers(); // a probe waiting for that peer looks again, and fails
    }

    public DeviceRequest imrecv(DeviceMessage message, MemorySegment buffer) {
        UnexpectedMessage m = (UnexpectedMessage) message;
        RecvRequest request = retiredOrNewRecv().prepare(buffer, m.source(), m.tag(), m.context());
        receiveMatched(request, m);
        return request;
    }

    public boolean cancel(DeviceRequest request) {
        if (!(request instanceof RecvRequest receive)) {
            return false;
        }
        boolean removed;
        engineLock.lock();
        try {
            removed = engine.removePosted(receive);
        } finally {
            engineLock.unlock();
        }
        if (removed) {
            receive.completeCancelled();
        }
        return removed;
    }

    /** <em>Enqueue message</em>: runs for every point-to-point RSR that arrives. */
    @Override
    public void handle(int source, ByteBuffer body) {
        if (body.remaining() < MessageHeader.LENGTH) {
            throw new MalformedRsrException("message RSR shorter than its header: " + body.remaining() + " bytes");
        }
        switch (MessageHeader.kind(body)) {
            case MessageHeader.EAGER -> onEager(source, body);
            case MessageHeader.RTS -> onRequestToSend(source, body);
            case MessageHeader.CTS -> onClearToSend(body);
            case MessageHeader.DATA -> onData(body);
            case MessageHeader.SYNC_ACK -> takeAwaitingSend(MessageHeader.senderRequest(body)).completeSent();
            case MessageHeader.PULLED -> onPulled(body);
            default -> throw new MalformedRsrException("unknown message kind " + MessageHeader.kind(body));
        }
    }

    private void onEager(int source, ByteBuffer body) {
        int ctx = MessageHeader.context(body);
        int tag = MessageHeader.tag(body);
        long senderRequest = MessageHeader.senderRequest(body);
        boolean sync = (MessageHeader.flags(body) & MessageHeader.FLAG_SYNC) != 0;
        int length = eagerPayloadLength(body);
        RecvRequest receive;
        engineLock.lock();
        try {
            receive = engine.takePosted(source, tag, ctx);
            if (receive == null) {
                engine.addUnexpected(unexpectedPool.eager(source, tag, ctx, body,
                        body.position() + MessageHeader.LENGTH, length, senderRequest, sync));
            }
        } finally {
            engineLock.unlock();
        }
        if (Jfr.ON) {
            WeftEvents.received(source, tag, ctx, length, methodFrom(source), sync ? "synchronous" : "eager",
                    receive != null);
        }
        if (receive == null) {
            waiters.wakeWatchers(); // a probe may wait for it
        } else {
            if (length == 0) { // nothing to copy: no view of the body to look up
                copyInto(receive, source, tag, NO_PAYLOAD, 0, 0);
            } else {
                BodyView view = perThread.get().bodyView.of(body);
                copyInto(receive, source, tag, view.segment, view.offset + MessageHeader.LENGTH, length);
            }
            if (sync) {
                reply(source, MessageHeader.SYNC_ACK, senderRequest, 0, SendCompletion.LOG_FAILURE);
            }
        }
    }

    private void onRequestToSend(int source, ByteBuffer body) {
        int ctx = MessageHeader.context(body);
        int tag = MessageHeader.tag(body);
        long length = MessageHeader.messageLength(body);
        long senderRequest = MessageHeader.senderRequest(body);
        boolean bulkOffered = (MessageHeader.flags(body) & MessageHeader.FLAG_BULK) != 0;
        long pull = (MessageHeader.flags(body) & MessageHeader.FLAG_PULL) != 0 ? MessageHeader.receiverRequest(body)
                : 0;
        RecvRequest receive;
        engineLock.lock();
        try {
            receive = engine.takePosted(source, tag, ctx);
            if (receive == null) {
                engine.addUnexpected(UnexpectedMessage.rendezvous(source, tag, ctx, length, senderRequest,
                        bulkOffered, pull));
            }
        } finally {
            engineLock.unlock();
        }
        if (Jfr.ON) {
            WeftEvents.received(source, tag, ctx, length, methodFrom(source), "rendezvous", receive != null);
        }
        if (receive == null) {
            waiters.wakeWatchers();
        } else {
            clearToSend(receive, source, tag, length, senderRequest, bulkOffered, pull);
        }
    }

    /** The receiver copied a send's data out of this process itself: the send is over. */
    private void onPulled(ByteBuffer body) {
        SendRequest send = takeAwaitingSend(MessageHeader.senderRequest(body));
        if (Jfr.ON) {
            WeftEvents.ends(send.rendezvous);
            send.rendezvous = null;
        }
        context.startpoint(send.dest).link().counters().sentInPlace(send.data.byteSize());
        send.completeSent();
    }

    /**
     * The receiver is ready: start the bulk transfer it asked for, or send the data in fragments, each telling its
     * offset (in the sender-request field).
     */
    private void onClearToSend(ByteBuffer body) {
        SendRequest send = takeAwaitingSend(MessageHeader.senderRequest(body));
        if (Jfr.ON) {
            WeftEvents.ends(send.rendezvous);
            send.rendezvous = null;
        }
        long receiverRequest = MessageHeader.receiverRequest(body);
        Startpoint peer = context.startpoint(send.dest);
        Link link = peer.link();
        if ((MessageHeader.flags(body) & MessageHeader.FLAG_BULK) != 0) {
            long wanted = MessageHeader.messageLength(body);
            BulkTransfer bulk = link.object().bulk();
            if (bulk == null || wanted <= 0 || wanted > send.data.byteSize()) {
                throw new MalformedRsrException("a bulk CTS for " + wanted + " bytes of a " + send.data.byteSize()
                        + "-byte send over " + link.module().name());
            }
            send.expectFragments(1);
            bulk.send(receiverRequest, send.data.asSlice(0, wanted), send.streams,
                    send.bulkListener(link.counters(), wanted));
            return;
        }
        long fragment = Math.max(1, Math.min(fragmentSize, link.maxRsrLength() - MessageHeader.LENGTH));
        long length = send.data.byteSize();
        int fragments = (int) Math.max(1, (length + fragment - 1) / fragment);
        send.expectFragments(fragments);
        for (long offset = 0; offset < length; offset += fragment) {
            ByteBuffer header = header(MessageHeader.DATA, (byte) 0, 0, send.tag, length, offset, receiverRequest);
            peer.send(ENQUEUE_MESSAGE, header, send.data.asSlice(offset, Math.min(fragment, length - offset)), send);
        }
    }

    private void onData(ByteBuffer body) {
        long id = MessageHeader.receiverRequest(body);
        RecvRequest receive = receivesAwaitingData.get(id);
        if (receive == null) {
            throw new MalformedRsrException("DATA for unknown receive " + id);
        }
        long offset = MessageHeader.senderRequest(body);
        int fragment = body.remaining() - MessageHeader.LENGTH;
        long capacity = receive.buffer().byteSize();
        long n = Math.max(0, Math.min(fragment, capacity - offset));
        if (n > 0) {
            BodyView view = perThread.get().bodyView.of(body);
            MemorySegment.copy(view.segment, view.offset + MessageHeader.LENGTH, receive.buffer(), offset, n);
        }
        if (receive.arrived(fragment)) {
            receivesAwaitingData.remove(id);
            if (Jfr.ON) {
                WeftEvents.ends(receive.rendezvous);
                receive.rendezvous = null;
            }
            long length = receive.matchedLength();
            receive.complete(receive.matchedSource(), receive.matchedTag(), Math.min(length, capacity),
                    length > capacity ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
        }
    }

    /** Completes the receive side of a match made from the unexpected queue or a matched probe. */
    private void receiveMatched(RecvRequest receive, UnexpectedMessage m) {
        if (m.isRendezvous()) {
            clearToSend(receive, m.source(), m.tag(), m.byteCount(), m.senderRequest(), m.isBulkOffered(),
                    m.pullAddress());
            return;
        }
        copyInto(receive, m.source(), m.tag(), m.eagerSegment(), 0, m.byteCount());
        if (m.isSynchronous()) {
            reply(m.source(), MessageHeader.SYNC_ACK, m.senderRequest(), 0, SendCompletion.LOG_FAILURE);
        }
    }

    /**
     * Takes the data itself when the sender offered it at {@code pullAddress} and this side's link to it can copy it
     * into the receive's buffer (then answers PULLED); else tells the sender to send: by a bulk transfer straight
     * into the receive's buffer when the sender offered one and this side's link to it can take the buffer (the
     * receive is started before the CTS goes), else as DATA fragments.
     */
    private void clearToSend(RecvRequest receive, int source, int tag, long length, long senderRequest,
                             boolean bulkOffered, long pullAddress) {
        long capacity = receive.buffer().byteSize();
        long accepted = Math.min(length, capacity);
        if (pullAddress != 0 && accepted > 0 && pulled(receive, source, tag, length, senderRequest, pullAddress)) {
            return;
        }
        long id = requestIds.incrementAndGet();
        receive.matched(source, tag, length);
        if (Jfr.ON) {
            receive.rendezvous = WeftEvents.rendezvousBegins("receiver", source, length, methodFrom(source));
        }
        Link link = bulkOffered && accepted > 0 ? context.startpoint(source).link() : null;
        BulkTransfer bulk = link != null ? link.object().bulk() : null;
        if (bulk != null && bulk.carries(receive.buffer().asSlice(0, accepted))) {
            int error = length > capacity ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS;
            bulk.receive(id, receive.buffer().asSlice(0, accepted), new BulkTransfer.Listener() {
                @Override
                public void done() {
                    link.counters().deliveredInPlace(accepted);
                    if (Jfr.ON) {
                        WeftEvents.ends(receive.rendezvous);
                        receive.rendezvous = null;
                    }
                    receive.complete(source, tag, accepted, error);
                }

                @Override
                public void failed(String why) {
                    receive.completeFailed(source, tag, ErrorClass.ERR_OTHER, why);
                }
            });
            ByteBuffer header = header(MessageHeader.CTS, MessageHeader.FLAG_BULK, 0, 0, accepted, senderRequest, id);
            // a receive whose sender is not cleared is cancelled; its listener completes it with the error
            context.startpoint(source).send(ENQUEUE_MESSAGE, header, NO_PAYLOAD,
                    SendCompletion.ofFailure(why -> bulk.cancelReceive(id)));
            return;
        }
        receivesAwaitingData.put(id, receive);
        reply(source, MessageHeader.CTS, senderRequest, id, SendCompletion.ofFailure(why -> {
            if (receivesAwaitingData.remove(id, receive)) { // else its data came: the receive is another's now
                receive.completeFailed(source, tag, ErrorClass.ERR_OTHER, why);
            }
        }));
    }

    /**
     * Copies the offered data at {@code address} in {@code source} straight into the receive's buffer by the link's
     * single copy, tells the sender and completes the receive; false, having done nothing the sender would notice,
     * when the link cannot.
     */
    private boolean pulled(RecvRequest receive, int source, int tag, long length, long senderRequest,
                           long address) {
        Link link = context.startpoint(source).link();
        SingleCopy single = link.object().singleCopy();
        long accepted = Math.min(length, receive.buffer().byteSize());
        if (single == null) {
            return false;
        }
        Rendezvous rendezvous = Jfr.ON ? WeftEvents.rendezvousBegins("receiver", source, length, methodFrom(source))
                : null;
        if (!single.copyFrom(address, receive.buffer().asSlice(0, accepted))) {
            return false; // the event, never ended, is not recorded: the CTS's path begins its own
        }
        if (Jfr.ON) {
            WeftEvents.ends(rendezvous);
        }
        receive.matched(source, tag, length);
        link.counters().deliveredInPlace(accepted);
        reply(source, MessageHeader.PULLED, senderRequest, 0, SendCompletion.LOG_FAILURE);
        receive.complete(source, tag, accepted, length > accepted ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
        return true;
    }

    /**
     * Copies a message of {@code length} bytes at {@code offset} of {@code data} into the receive's buffer,
     * truncating (and saying so) when it does not fit.
     */
    private static void copyInto(RecvRequest receive, int source, int tag, MemorySegment data, long offset,
                                 long length) {
        long capacity = receive.buffer().byteSize();
        long n = Math.min(capacity, length);
        if (n > 0) {
            MemorySegment.copy(data, offset, receive.buffer(), 0, n);
        }
        receive.complete(source, tag, n, length > capacity ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
    }

    private void reply(int peer, byte kind, long senderRequest, long receiverRequest, SendCompletion completion) {
        ByteBuffer header = header(kind, (byte) 0, 0, 0, 0, senderRequest, receiverRequest);
        context.startpoint(peer).send(ENQUEUE_MESSAGE, header, NO_PAYLOAD, completion);
    }

    /**
     * The largest message {@code link}'s method carries eagerly: its own limit, within one RSR (so rendezvous is
     * never used for an empty message).
     */
    private static long eagerLimit(Link link) {
        return Math.max(0, Math.min(link.eagerLimit(), link.maxRsrLength() - MessageHeader.LENGTH));
    }

    private long awaitReceiver(SendRequest request) {
        long id = requestIds.incrementAndGet();
        request.awaitReceiver(sendsAwaitingReceiver, id);
        return id;
    }

    private SendRequest takeAwaitingSend(long id) {
        SendRequest send = sendsAwaitingReceiver.remove(id);
        if (send == null) {
            throw new MalformedRsrException("reply for unknown send request " + id);
        }
        return send;
    }

    private ByteBuffer header(byte kind, byte flags, int ctx, int tag, long length, long senderRequest,
                              long receiverRequest) {
        return MessageHeader.write(perThread.get().header, kind, flags, ctx, tag, length, senderRequest, receiverRequest);
    }

    /** The payload length of an EAGER message, checked against the length its header gives. */
    private static int eagerPayloadLength(ByteBuffer body) {
        long length = MessageHeader.messageLength(body);
        int remaining = body.remaining() - MessageHeader.LENGTH;
        if (length != remaining) {
            throw new MalformedRsrException("payload of " + remaining + " bytes, header says " + length);
        }
        return remaining;
    }

    /**
     * A segment over an RSR body for copying out of it. Modules that deliver from a buffer they reuse (a ring's
     * view, a stream's window) hand the same {@link ByteBuffer} again and again with another position: its segment
     * over the whole buffer is made once per thread, and the body is addressed by offset, instead of a new segment
     * per RSR. Valid until the next {@link #of} on this thread.
     */
    private static final class BodyView {
        private ByteBuffer last;
        private MemorySegment whole;
        MemorySegment segment;
        long offset;

        BodyView of(ByteBuffer body) {
            if (body == last) {
                if (whole == null) {
                    whole = MemorySegment.ofBuffer(body.duplicate().clear());
                }
                segment = whole;
                offset = body.position();
            } else {
                last = body;
                whole = null;
                segment = MemorySegment.ofBuffer(body);
                offset = 0;
            }
            return this;
        }
    }
}
