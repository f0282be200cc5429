package org.weft.mm.proto;

import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.mm.SendCompletion;
import org.weft.mm.progress.Waiters;
import org.weft.mm.spi.BulkTransfer;
import org.weft.mm.stats.MethodCounters;

import java.lang.foreign.MemorySegment;

/**
 * A send, and the completion its eager RSR or its data fragments report to. An eager standard send completes when
 * the method took it; a synchronous one when the receiver acknowledges the match; a rendezvous one when the method
 * took its last data fragment.
 */
final class SendRequest extends DeviceRequest implements SendCompletion {
    MemorySegment data;
    int dest;
    int tag;
    private final Waiters waiters;
    /** Data fragments the method has still to take; 0 while the send is eager or waits for CTS. */
    private int fragmentsLeft;
    private boolean completesWhenTaken;
    private SendCompletion failureReporter;

    /** The thread whose blocking sends this request serves, or {@code null} when any thread may wait for it. */
    private final Thread owner;

    /** A request to be {@link #prepare prepared} for each send it serves. */
    SendRequest(Waiters waiters) {
        this(waiters, null);
    }

    /** A request for the blocking sends of {@code owner} only. */
    SendRequest(Waiters waiters, Thread owner) {
        this.waiters = waiters;
        this.owner = owner;
    }

    /**
     * Readies the request for a send (again, when reused: it must be complete and no longer read by anyone). Not
     * synchronized: no other thread holds the request yet; the startpoint's lock or the map of sends awaiting a
     * receiver publishes it with these fields.
     *
     * @param completesWhenTaken true for an eager standard send, which is complete as soon as the method took it
     */
    SendRequest prepare(MemorySegment data, int dest, int tag, boolean completesWhenTaken) {
        reuse();
        this.data = data;
        this.dest = dest;
        this.tag = tag;
        this.completesWhenTaken = completesWhenTaken;
        this.fragmentsLeft = 0;
        return this;
    }

    /**
     * The completion for RSRs of this send whose arrival is not what completes it (an RTS, a synchronous eager
     * message): only a failure matters.
     */
    synchronized SendCompletion failureReporter() {
        if (failureReporter == null) {
            failureReporter = new SendCompletion() {
                @Override
                public void sent() {
                }

                @Override
                public void failed(String why) {
                    SendRequest.this.failed(why);
                }
            };
        }
        return failureReporter;
    }

    /**
     * What the bulk transfer of this send's data tells: the one "fragment" went (see {@link #expectFragments}), its
     * {@code bytes} counted for the method.
     */
    BulkTransfer.Listener bulkListener(MethodCounters counters, long bytes) {
        return new BulkTransfer.Listener() {
            @Override
            public void done() {
                counters.sentInPlace(bytes);
                sent();
            }

            @Override
            public void failed(String why) {
                SendRequest.this.failed(why);
            }
        };
    }

    /** The receiver answered: the data goes as {@code fragments} RSRs, each reported to {@link #sent()}. */
    synchronized void expectFragments(int fragments) {
        fragmentsLeft = fragments;
    }

    @Override
    public void sent() {
        if (completesWhenTaken) {
            completeSent(); // an eager standard send: the one RSR went, no count to keep (nor lock to take)
            return;
        }
        synchronized (this) {
            if (fragmentsLeft > 1) {
                fragmentsLeft--;
                return;
            }
            if (fragmentsLeft == 0) {
                return;
            }
            fragmentsLeft = 0;
        }
        completeSent();
    }

    @Override
    public void failed(String why) {
        if (!isComplete()) {
            complete(dest, tag, 0, ErrorClass.ERR_OTHER);
        }
    }

    void completeSent() {
        complete(dest, tag, data.byteSize(), ErrorClass.SUCCESS);
    }

    /** Whether any thread may use this request (it is not a thread's own, for its blocking calls). */
    public boolean servesAnyThread() {
        return owner == null;
    }

    @Override
    protected boolean completedByItsOnlyWaiter() {
        return owner == Thread.currentThread();
    }

    @Override
    protected void onComplete() {
        waiters.wakeAll();
    }
}
