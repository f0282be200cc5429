package org.weft.mm.module.self;

import org.weft.adi.param.Parameter;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.SendStatus;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The loopback method (after Open MPI's {@code btl/self}): a send copies the RSR into a queue and a progress pass
 * delivers it. Delivering from a pass, not from inside the send, keeps handlers from running re-entrantly
 * under the sender's feet. One poller at a time, so RSRs are delivered in the order they were sent.
 */
public final class SelfModule implements CommModule {
    public static final Parameter<Long> EAGER_LIMIT = Parameter.bytes("self_eager_limit", 64 * 1024,
            "largest message a process sends to itself eagerly (larger ones use rendezvous)");
    public static final List<Parameter<?>> PARAMETERS = List.of(EAGER_LIMIT);

    private static final int MAX_PER_POLL = 64;

    private final ConcurrentLinkedQueue<Frame> queue = new ConcurrentLinkedQueue<>();
    /**
     * RSRs queued and not yet taken: every progress pass asks, and a counter answers with one load where the queue's
     * {@code isEmpty()} walks from its head (a few per cent of a waiting rank's loop in a profile).
     */
    private final AtomicInteger queued = new AtomicInteger();
    private final ReentrantLock pollLock = new ReentrantLock();
    private ModuleContext context;
    private byte[] identity;
    private long eagerLimit;
    private final CommObject link = new CommObject() {
        @Override
        public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
            ByteBuffer body = ByteBuffer.allocate(header.remaining() + (int) payload.byteSize())
                    .order(ByteOrder.LITTLE_ENDIAN);
            body.put(header.duplicate());
            MemorySegment.copy(payload, 0, MemorySegment.ofArray(body.array()), body.position(), payload.byteSize());
            queue.offer(new Frame(endpointId, handlerId, body.clear()));
            queued.incrementAndGet();
            return SendStatus.SENT;
        }

        @Override
        public String methodName() {
            return "self";
        }
    };

    private record Frame(int endpointId, int handlerId, ByteBuffer body) {
    }

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

    @Override
    public long eagerLimit() {
        return eagerLimit;
    }

    @Override
    public int poll() {
        if (queued.get() == 0 || !pollLock.tryLock()) {
            return 0;
        }
        try {
            int delivered = 0;
            Frame frame;
            while (delivered < MAX_PER_POLL && (frame = queue.poll()) != null) {
                queued.decrementAndGet();
                context.inbound().deliver(context.rank(), frame.endpointId, frame.handlerId, frame.body);
                delivered++;
            }
            return delivered;
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public void shutdown() {
        queue.clear();
        queued.set(0);
    }
}
