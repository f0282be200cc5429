package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;

/**
 * Pairwise-exchange alltoall (and alltoallv/w; MPICH's long-message algorithm): in step k each member sends to
 * member + k and receives from member − k, one pair at a time, so no member is flooded; each block travels
 * once, straight between the user buffers. p − 1 steps, any block sizes. A block takes what was sent, up to its
 * size, as Open MPI's pairwise and linear alltoall(v/w) do.
 */
public final class PairwiseAlltoall {
    private PairwiseAlltoall() {
    }

    /** Sends {@code sendBlocks[i]} to member i and receives {@code recvBlocks[i]} from member i. */
    public static void append(Schedule s, Members m, MemorySegment[] sendBlocks, MemorySegment[] recvBlocks) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        s.local(() -> MemorySegment.copy(sendBlocks[me], 0, recvBlocks[me], 0, sendBlocks[me].byteSize()));
        for (int step = 1; step < size; step++) {
            int to = (me + step) % size;
            int from = (me - step + size) % size;
            s.send(sendBlocks[to], m.world(to)).receive(recvBlocks[from], m.world(from), Fill.UP_TO).endRound();
        }
        s.endRound();
    }
}
