package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.weft.mm.spi.BulkTransfer;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;

/**
 * The {@code nativempi} link to one peer: its native rank in the module's communicator, the shared send slots for
 * RSRs, and bulk transfers of large data between native memory on both sides.
 */
final class NativeLink implements CommObject, BulkTransfer {
    private final int peerRank;
    private final int nativeRank;
    private final SendSlots sends;
    private final BulkTransfers transfers;
    /** Smallest data moved by a bulk transfer; 0: none. */
    private final long bulkMin;

    NativeLink(int peerRank, int nativeRank, SendSlots sends, BulkTransfers transfers, long bulkMin) {
        this.peerRank = peerRank;
        this.nativeRank = nativeRank;
        this.sends = sends;
        this.transfers = transfers;
        this.bulkMin = bulkMin;
    }

    int peerRank() {
        return peerRank;
    }

    int nativeRank() {
        return nativeRank;
    }

    @Override
    public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        if ((endpointId & ~RsrPrefix.MAX_ID) != 0 || (handlerId & ~RsrPrefix.MAX_ID) != 0) {
            throw new IllegalArgumentException("endpoint " + endpointId + " / handler " + handlerId
                    + " outside 0.." + RsrPrefix.MAX_ID);
        }
        return sends.send(nativeRank, endpointId, handlerId, header, payload);
    }

    @Override
    public BulkTransfer bulk() {
        return bulkMin > 0 ? this : null;
    }

    /** Data of a size one MPI message carries (a heap array's through a native copy: {@link BulkTransfers}). */
    @Override
    public boolean carries(MemorySegment memory) {
        long bytes = memory.byteSize();
        long least = memory.isNative() ? bulkMin : Math.max(bulkMin, BulkTransfers.HEAP_MIN_BYTES);
        return bulkMin > 0 && bytes >= least && bytes <= BulkTransfers.MAX_BYTES;
    }

    @Override
    public void receive(long id, MemorySegment into, Listener listener) {
        transfers.start(true, nativeRank, id, into, listener);
    }

    @Override
    public void cancelReceive(long id) {
        transfers.cancelReceive(id);
    }

    @Override
    public void send(long id, MemorySegment from, Listener listener) {
        transfers.start(false, nativeRank, id, from, listener);
    }

    @Override
    public String methodName() {
        return NativeMpiModule.NAME;
    }
}
