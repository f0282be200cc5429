package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.SendMode;
import org.weft.core.coll.BarrierAlgorithm;
import org.weft.core.coll.CollectiveTags;
import org.weft.core.comm.Communicator;
import org.weft.core.error.MpiErrors;

/**
 * Dissemination barrier (Hensgen, Finkel and Manber): in round k each rank signals rank + 2^k and waits for
 * rank − 2^k, so after ⌈log2 p⌉ rounds every rank has heard, directly or not, from every other. Works for any
 * number of ranks. Each round uses its own tag in the collective context; non-overtaking order keeps
 * consecutive barriers apart.
 */
public final class DisseminationBarrier implements BarrierAlgorithm {
    /** Tags of barrier rounds in the collective context (the round number is added). */
    static final int TAG_BASE = CollectiveTags.BARRIER;

    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    @Override
    public void barrier(Communicator comm) {
        int size = comm.size();
        int rank = comm.rank();
        Device device = comm.device();
        int context = comm.collectiveContext();
        int round = 0;
        for (int distance = 1; distance < size; distance <<= 1, round++) {
            int to = comm.toWorld((rank + distance) % size);
            int from = comm.toWorld((rank - distance + size) % size);
            DeviceRequest recv = device.irecv(EMPTY, from, TAG_BASE + round, context);
            DeviceRequest send = device.isend(EMPTY, to, TAG_BASE + round, context, SendMode.STANDARD);
            device.await(send);
            device.await(recv);
            if (recv.error() != ErrorClass.SUCCESS) {
                throw MpiErrors.error(recv.error(), "barrier round " + round + " failed");
            }
        }
    }
}
