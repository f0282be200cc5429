package org.weft.mm.proto;

import org.weft.adi.DeviceRequest;
import org.weft.mm.progress.Waiters;

import java.lang.foreign.MemorySegment;

/** A send waiting for the receiver: for CTS (rendezvous) or for the acknowledgement of a synchronous send. */
final class SendRequest extends DeviceRequest {
    final MemorySegment data;
    final int dest;
    final int tag;
    private final Waiters waiters;

    SendRequest(MemorySegment data, int dest, int tag, Waiters waiters) {
        this.data = data;
        this.dest = dest;
        this.tag = tag;
        this.waiters = waiters;
    }

    void completeSent() {
        complete(dest, tag, data.byteSize(), org.weft.adi.ErrorClass.SUCCESS);
    }

    @Override
    protected void onComplete() {
        waiters.wakeAll();
    }
}
