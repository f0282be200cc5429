package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Linear reduction in rank order, for operations that are not commutative: every member sends to the root, which
 * receives all contributions at once and folds them from the highest member down, {@code acc = v[i] op acc}, so
 * that the result is {@code v[0] op v[1] op ... op v[p-1]} as MPI requires. p − 1 messages into the root: a
 * fallback for user operations, not a fast path.
 */
public final class OrderedLinearReduce {
    private OrderedLinearReduce() {
    }

    /** Combines every member's {@code send} in member order into {@code recv} of member {@code root}. */
    public static void append(Schedule s, Members m, MemorySegment send, MemorySegment recv, int count,
                              Combiner op, int root) {
        if (!m.includesMe()) {
            return;
        }
        if (m.me() != root) {
            s.send(send, m.world(root)).endRound();
            return;
        }
        int size = m.size();
        long bytes = send.byteSize();
        MemorySegment[] contributions = new MemorySegment[size];
        for (int i = 0; i < size; i++) {
            contributions[i] = Blocks.scratch(bytes);
            if (i == root) {
                MemorySegment own = contributions[i];
                s.local(() -> MemorySegment.copy(send, 0, own, 0, bytes)); // recv may be send (in place)
            } else {
                s.receive(contributions[i], m.world(i));
            }
        }
        s.endRound();
        s.local(() -> {
            MemorySegment.copy(contributions[size - 1], 0, recv, 0, bytes);
            for (int i = size - 2; i >= 0; i--) {
                op.combine(contributions[i], recv, count);
            }
        }).endRound();
    }
}
