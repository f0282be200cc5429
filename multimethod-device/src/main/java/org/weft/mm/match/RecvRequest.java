package org.weft.mm.match;

import org.weft.adi.jfr.Rendezvous;
import org.weft.adi.DeviceRequest;
import org.weft.mm.progress.Waiters;

import java.lang.foreign.MemorySegment;

/** A receive: what it matches, where its data goes, and (during rendezvous) what it matched and what has arrived. */
public final class RecvRequest extends DeviceRequest {
    int source;
    int tag;
    int context;
    private MemorySegment buffer;
    private final Waiters waiters;
    private int matchedSource;
    private int matchedTag;
    private long matchedLength;
    private long bytesArrived;

    /** The thread whose blocking receives this request serves, or {@code null} when any thread may wait for it. */
    private final Thread owner;
    /** The receiver's side of this receive's rendezvous until its data is in (Flight Recorder events on only). */
    public Rendezvous rendezvous;

    /** A request to be {@link #prepare prepared} for each receive it serves. */
    public RecvRequest(Waiters waiters) {
        this(waiters, null);
    }

    /** A request for the blocking receives of {@code owner} only. */
    public RecvRequest(Waiters waiters, Thread owner) {
        this.waiters = waiters;
        this.owner = owner;
    }

    /** Readies the request for a receive (again, when reused: it must be complete and no longer read by anyone). */
    public RecvRequest prepare(MemorySegment buffer, int source, int tag, int context) {
        reuse();
        this.buffer = buffer;
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.matchedLength = 0;
        this.bytesArrived = 0;
        return this;
    }

    /** The source this receive asks for (a world rank or {@code ANY_SOURCE}). */
    public int wantedSource() {
        return source;
    }

    /** The tag this receive asks for (or {@code ANY_TAG}). */
    public int wantedTag() {
        return tag;
    }

    public int context() {
        return context;
    }

    public MemorySegment buffer() {
        return buffer;
    }

    /** Remembers the envelope a rendezvous matched, for when its data arrives. */
    public void matched(int source, int tag, long length) {
        this.matchedSource = source;
        this.matchedTag = tag;
        this.matchedLength = length;
    }

    public long matchedLength() {
        return matchedLength;
    }

    /** Counts {@code bytes} of rendezvous data arrived; true when the whole message is in. */
    public synchronized boolean arrived(long bytes) {
        bytesArrived += bytes;
        return bytesArrived >= matchedLength;
    }

    public int matchedSource() {
        return matchedSource;
    }

    public int matchedTag() {
        return matchedTag;
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
