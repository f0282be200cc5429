package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;

/** The {@code nativempi} link to one peer: its native rank in the module's communicator and the shared send slots. */
final class NativeLink implements CommObject {
    private final int peerRank;
    private final int nativeRank;
    private final SendSlots sends;

    NativeLink(int peerRank, int nativeRank, SendSlots sends) {
        this.peerRank = peerRank;
        this.nativeRank = nativeRank;
        this.sends = sends;
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
    public String methodName() {
        return NativeMpiModule.NAME;
    }
}
