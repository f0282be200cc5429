package org.weft.mm.module.self;

import org.weft.adi.concurrent.SpinLock;
import org.weft.adi.param.Parameter;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.spi.SendStatus;
import org.weft.mm.stats.MethodCounters;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The loopback method (after Open MPI's {@code btl/self}): a send copies the RSR into a queue ({@link PendingRsrs})
 * and a progress pass delivers it. Delivering from a pass, not from inside the send, keeps handlers from running
 * re-entrantly under the sender's feet. One poller at a time, so RSRs are delivered in the order they were sent.
 */
public final class SelfModule implements CommModule {
    public static final Parameter<Long> EAGER_LIMIT = Parameter.bytes("self_eager_limit", 64 * 1024,
            "largest message a process sends to itself eagerly (larger ones use rendezvous)");
    public static final List<Parameter<?>> PARAMETERS = List.of(EAGER_LIMIT);

    private static final int MAX_PER_POLL = 64;

    private final PendingRsrs pending = new PendingRsrs();
    /** The poller's token: not reentrant, so a handler that polls from inside a delivery gets 0 (see {@link #poll}). */
    private final SpinLock polling = new SpinLock();
    /** The poller's copy of the RSR it delivers (under {@link #polling}). */
    private final PendingRsrs.Taken taken = new PendingRsrs.Taken();
    private ModuleContext context;
    /** What this process sent itself (under {@link #pending}'s lock). */
    private MethodCounters.Traffic sent;
    /** The context's inbound sink, counting what {@link #poll} delivers (under {@link #polling}). */
    private RsrSink sink;
    private byte[] identity;
    private long eagerLimit;
    private final CommObject link = new CommObject() {
        @Override
        public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
            pending.add(endpointId, handlerId, header, payload, sent);
            return SendStatus.SENT;
        }

        @Override
        public String methodName() {
            return "self";
        }
    };

    @Override
    public String name() {
        return "self";
    }

    @Override
    public String unavailabilityCause(ModuleContext context) {
        return null;
    }

    @Override
    public void init(ModuleContext context) {
        this.context = context;
        this.sent = context.counters().newTraffic();
        this.sink = context.inbound().countingIn(context.counters().newTraffic());
        this.identity = (context.jobId() + "/" + context.rank()).getBytes(StandardCharsets.UTF_8);
        this.eagerLimit = context.parameters().get(EAGER_LIMIT);
    }

    @Override
    public Descriptor localDescriptor() {
        return new Descriptor(name(), identity);
    }

    @Override
    public CommObject connect(int peerRank, Descriptor remote) {
        return peerRank == context.rank() && Arrays.equals(remote.data(), identity) ? link : null;
    }

    /** Each rank to itself: its own descriptor on both sides. */
    @Override
    public boolean connects(int rankA, Descriptor a, int rankB, Descriptor b) {
        return rankA == rankB && Arrays.equals(a.data(), b.data());
    }

    @Override
    public long eagerLimit() {
        return eagerLimit;
    }

    /**
     * Delivers up to {@value #MAX_PER_POLL} queued RSRs in order. A poll from inside one of them (a handler that waits
     * on this thread) delivers nothing: the RSR being delivered is in {@link #taken}, which the next would overwrite.
     */
    @Override
    public int poll() {
        if (pending.isEmpty() || !polling.tryLock()) {
            return 0;
        }
        try {
            int delivered = 0;
            while (delivered < MAX_PER_POLL && pending.take(taken)) {
                sink.deliver(context.rank(), taken.endpointId, taken.handlerId, taken.body());
                delivered++;
            }
            return delivered;
        } finally {
            polling.unlock();
        }
    }

    @Override
    public void shutdown() {
        pending.clear();
    }
}
