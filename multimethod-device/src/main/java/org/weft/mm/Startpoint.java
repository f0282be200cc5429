package org.weft.mm;

import org.weft.adi.jfr.BackPressureWait;
import org.weft.adi.jfr.Jfr;
import org.weft.adi.jfr.WeftEvents;
import org.weft.mm.select.Link;
import org.weft.mm.select.SelectionPolicy;
import org.weft.mm.spi.SendStatus;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * A reference to an endpoint of another (or this) context, carrying that context's descriptor table. The method
 * is chosen on first use by the selection policy and cached; every startpoint to the same peer by the same method
 * shares the module's communication object.
 *
 * <p>Back-pressure (STYLE.md #8): when the method cannot take an RSR now, it waits in this startpoint's queue, and
 * every later RSR to the peer queues behind it so that order holds; progress passes {@link #flush()} the queue.
 * One thread's RSRs leave in the order it sent them: a thread whose RSR was queued sees the queue non-empty on its
 * next send and queues behind it.
 */
public final class Startpoint {
    private final int rank;
    private final int endpointId;
    private final DescriptorTable table;
    private final SelectionPolicy policy;
    private final Backlog backlog;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private volatile Link link;
    /**
     * True from the first RSR queued until a flush empties the queue (written under this startpoint's monitor):
     * while false, a send skips the monitor (two locked instructions per RSR).
     */
    private volatile boolean hasPending;
    /** Why no method reaches the peer, once every one that applied turned out unreachable. */
    private volatile String unreachable;
    /** The wait the queue stands for while it is not empty (Flight Recorder events on only; under the monitor). */
    private BackPressureWait backPressure;

    private record Pending(int handlerId, ByteBuffer header, MemorySegment payload, SendCompletion completion) {
    }

    Startpoint(int rank, int endpointId, DescriptorTable table, SelectionPolicy policy, Backlog backlog) {
        this.rank = rank;
        this.endpointId = endpointId;
        this.table = table;
        this.policy = policy;
        this.backlog = backlog;
    }

    public int rank() {
        return rank;
    }

    public DescriptorTable table() {
        return table;
    }

    /** The method that reaches this endpoint, selected on first call. */
    public Link link() {
        Link l = link;
        if (l == null) {
            synchronized (this) {
                l = link;
                if (l == null) {
                    l = policy.select(rank, table);
                    link = l;
                }
            }
        }
        return l;
    }

    /** The method selected so far, or {@code null} when this startpoint has not been used. */
    public Link selectedLink() {
        return link;
    }

    /**
     * Sends one RSR to handler {@code handlerId} of the endpoint now, or queues it behind earlier ones when the
     * method pushes back; {@code completion} hears when the method took it. {@code header} is copied if queued;
     * {@code payload} must stay valid until {@code completion} is told.
     */
    public void send(int handlerId, ByteBuffer header, MemorySegment payload, SendCompletion completion) {
        Link l = link();
        int start = header.position();
        SendStatus status;
        if (!hasPending) {
            // Nothing queued: straight to the method, whose communication object serialises its senders. A send of
            // another thread that queues meanwhile may be passed: only each thread's own order is kept.
            status = l.object().send(endpointId, handlerId, header, payload);
        } else {
            synchronized (this) {
                status = pending.isEmpty() ? l.object().send(endpointId, handlerId, header, payload)
                        : SendStatus.BACK_PRESSURED;
            }
        }
        if (status == SendStatus.BACK_PRESSURED) {
            // Behind this thread's earlier queued RSRs, or alone: a flush in between only means fewer before it.
            enqueue(handlerId, header.position(start), payload, completion);
            return;
        }
        if (status == SendStatus.FAILED && reselect(l)) {
            send(handlerId, header, payload, completion);
            return;
        }
        report(l, status, completion);
    }

    /**
     * After {@code failed} answered FAILED: when it never reached the peer (and so took nothing), the next method
     * that applies replaces it; returns whether one did. The RSRs waiting here go there in order.
     */
    private boolean reselect(Link failed) {
        if (failed.object().unreachableBecause() == null) {
            return false;
        }
        synchronized (this) {
            if (link == failed) {
                try {
                    link = policy.select(rank, table);
                } catch (IllegalStateException e) {
                    unreachable = e.getMessage();
                    return false;
                }
            }
            return link != failed;
        }
    }

    private synchronized void enqueue(int handlerId, ByteBuffer header, MemorySegment payload,
                                      SendCompletion completion) {
        ByteBuffer copy = ByteBuffer.allocate(header.remaining()).order(header.order());
        copy.put(header.duplicate()).flip();
        if (pending.isEmpty()) {
            backlog.add(this);
            if (Jfr.ON) {
                backPressure = WeftEvents.backPressureBegins(rank, link().module().name());
            }
        }
        if (Jfr.ON && backPressure != null) {
            backPressure.queued++;
        }
        pending.add(new Pending(handlerId, copy, payload, completion));
        hasPending = true;
    }

    /** Hands queued RSRs to the method, in order, until it pushes back again; returns how many went. */
    public int flush() {
        Link l = link;
        int sent = 0;
        while (true) {
            Pending next;
            SendStatus status;
            synchronized (this) {
                next = pending.peek();
                if (next == null) {
                    hasPending = false;
                    if (Jfr.ON) {
                        WeftEvents.ends(backPressure);
                        backPressure = null;
                    }
                    return sent;
                }
                // The queued header itself, not a duplicate per attempt (a pass per poll while the method pushes
                // back): a method that does not take it leaves it to be offered again from its start.
                status = l.object().send(endpointId, next.handlerId, next.header, next.payload);
                if (status != SendStatus.SENT) {
                    next.header.rewind();
                }
                if (status == SendStatus.FAILED && reselect(l)) {
                    l = link;
                    continue;
                }
                if (status == SendStatus.BACK_PRESSURED) {
                    backlog.add(this);
                    return sent;
                }
                pending.poll();
            }
            sent++;
            report(l, status, next.completion);
        }
    }

    private void report(Link l, SendStatus status, SendCompletion completion) {
        if (status == SendStatus.SENT) {
            completion.sent();
        } else {
            String why = unreachable;
            completion.failed(why != null ? why
                    : "rank " + rank + " cannot be reached by " + l.module().name() + " (" + status + ")");
        }
    }
}
