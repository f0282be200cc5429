package org.weft.mm.proto;

import org.weft.adi.jfr.Rendezvous;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.mm.SendCompletion;
import org.weft.mm.progress.Waiters;
import org.weft.mm.spi.BulkTransfer;
import org.weft.mm.stats.MethodCounters;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * A send, and the completion its eager RSR or its data fragments report to. An eager standard send completes when
 * the method took it; a synchronous one when the receiver acknowledges the match; a rendezvous one when the method
 * took its last data fragment.
 */
final class SendRequest extends DeviceRequest implements SendCompletion {
    MemorySegment data;
    int dest;
    int tag;
    /** Streams this send's communicator asks for over a wide-area path ({@code weft_streams}); 0: the path's. */
    int streams;
    private final Waiters waiters;
    /**
     * Data fragments the method has still to take before the send succeeds; 0 while the send is eager or waits for
     * CTS, and from a failure on (fragments reported after it do not make the send succeed). Guarded by this.
     */
    private int fragmentsLeft;
    /**
     * Reports still due to this request from RSRs the startpoints hold (an RTS or synchronous message through the
     * {@link #failureReporter()}, data fragments): a send that failed part-way is complete while later fragments
     * wait in a back-pressure queue, and the request may serve another send only once they have reported
     * ({@link #isSettled()}). Guarded by this; an eager standard send never counts (its one report completes it).
     */
    private int reportsDue;
    private boolean completesWhenTaken;
    private SendCompletion failureReporter;
    /** The sends awaiting their receiver's answer, this one among them under {@link #awaitingId}; else null. */
    private Map<Long, SendRequest> awaitingIn;
    private long awaitingId;

    /** The thread whose blocking sends this request serves, or {@code null} when any thread may wait for it. */
    private final Thread owner;
    /** The sender's side of this send's rendezvous while it waits for the CTS (Flight Recorder events on only). */
    Rendezvous rendezvous;

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
        this.fragmentsLeft = 0; // reportsDue is 0 already: a request is reused only settled
        this.awaitingIn = null;
        return this;
    }

    /**
     * Registers this send in {@code sends} under {@code id} until its receiver answers (a CTS, a synchronous
     * message's acknowledgement), which finds it there; a failure to send what asked for the answer takes it out.
     */
    synchronized void awaitReceiver(Map<Long, SendRequest> sends, long id) {
        awaitingIn = sends;
        awaitingId = id;
        sends.put(id, this);
    }

    /**
     * The completion for the one RSR of this send whose arrival is not what completes it (its RTS, or its message
     * when synchronous): only a failure matters. Counted as due from this call until it reports.
     */
    synchronized SendCompletion failureReporter() {
        reportsDue++;
        if (failureReporter == null) {
            failureReporter = new SendCompletion() {
                @Override
                public void sent() {
                    synchronized (SendRequest.this) {
                        reportsDue--;
                    }
                }

                @Override
                public void failed(String why) {
                    synchronized (SendRequest.this) {
                        if (awaitingIn != null) { // no answer will come: the entry would outlive the send
                            awaitingIn.remove(awaitingId, SendRequest.this);
                        }
                    }
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
        reportsDue += fragments;
    }

    @Override
    public void sent() {
        if (completesWhenTaken) {
            completeSent(); // an eager standard send: the one RSR went, no count to keep (nor lock to take)
            return;
        }
        synchronized (this) {
            reportsDue--;
            if (fragmentsLeft == 0 || --fragmentsLeft > 0) {
                return;
            }
        }
        completeSent();
    }

    @Override
    public void failed(String why) {
        if (!completesWhenTaken) {
            synchronized (this) {
                reportsDue--;
                fragmentsLeft = 0;
            }
        }
        if (!isComplete()) {
            completeFailed(dest, tag, ErrorClass.ERR_OTHER, why);
        }
    }

    /**
     * The receiver was lost while this send waited for its answer (taken out of the sends awaiting one): no answer
     * will come. Its RTS or message reported already, so no report is due for it.
     */
    void receiverLost(String why) {
        synchronized (this) {
            fragmentsLeft = 0;
        }
        if (!isComplete()) {
            completeFailed(dest, tag, ErrorClass.ERR_OTHER, why);
        }
    }

    /**
     * Whether the send is over and nothing will report to this request any more, so that it may serve another
     * send: complete, and (unless an eager standard send, whose completion was its one report) no report due.
     */
    boolean isSettled() {
        if (!isComplete()) {
            return false;
        }
        if (completesWhenTaken) {
            return true;
        }
        synchronized (this) {
            return reportsDue == 0;
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
        if (owner != null) {
            waiters.wake(owner);
        } else {
            waiters.wakeWaitersOf(this);
        }
    }
}
