package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Reduce-scatter by direct exchange: every member sends block j of its input to member j and receives its own
 * block from everyone at once, then folds the p contributions from the highest member down
 * ({@code acc = v[i] op acc}), so the result keeps rank order for non-commutative operations. One step; each
 * member sends and receives (p − 1)/p of the vector once.
 */
public final class PairwiseReduceScatter {
    private PairwiseReduceScatter() {
    }

    /**
     * Combines block {@code i} of every member's input ({@code sendBlocks}) into {@code recv} of member i, which
     * holds {@code counts[i]} items; {@code recv} may overlap the input (in place).
     */
    public static void append(Schedule s, Members m, MemorySegment[] sendBlocks, MemorySegment recv,
                              int[] counts, Combiner op) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        long bytes = sendBlocks[me].byteSize();
        if (size == 1) {
            s.local(() -> MemorySegment.copy(sendBlocks[0], 0, recv, 0, bytes)).endRound();
            return;
        }
        MemorySegment[] contributions = new MemorySegment[size];
        for (int i = 0; i < size; i++) {
            if (i == me) {
                contributions[i] = sendBlocks[me]; // combined where it lies, not copied first
            } else {
                contributions[i] = Blocks.scratch(bytes);
                s.send(sendBlocks[i], m.world(i)).receive(contributions[i], m.world(i));
            }
        }
        s.endRound();
        // the partial results in a scratch block, the last straight into recv: in place, recv is the input's block
        // 0, which is member 0's own contribution and must be read before recv is written
        MemorySegment partial = size > 2 ? Blocks.scratch(bytes) : null;
        s.local(() -> {
            MemorySegment acc = contributions[size - 1];
            for (int i = size - 2; i >= 1; i--) {
                op.combineInto(contributions[i], acc, partial, counts[me]);
                acc = partial;
            }
            op.combineInto(contributions[0], acc, recv, counts[me]);
        }).endRound();
    }
}
