package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Inclusive and exclusive scan by recursive doubling (MPICH's algorithm): each member keeps the combination of a
 * growing window of members ending with itself and exchanges it with the partner at distance 1, 2, 4, …; what
 * comes from below is combined on the left, so rank order holds for non-commutative operations. ⌈log2 p⌉
 * steps. The exclusive scan leaves member 0's result untouched, as MPI leaves it undefined.
 */
public final class RecursiveDoublingScan {
    private RecursiveDoublingScan() {
    }

    /**
     * {@code recv} of member i = the sends of members 0..i combined (0..i−1 if {@code exclusive});
     * {@code recv} may be {@code send}.
     */
    public static void append(Schedule s, Members m, MemorySegment send, MemorySegment recv, int count,
                              Combiner op, boolean exclusive) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        long bytes = send.byteSize();
        MemorySegment partial = Blocks.scratch(bytes);
        MemorySegment incoming = Blocks.scratch(bytes);
        s.local(() -> {
            MemorySegment.copy(send, 0, partial, 0, bytes);
            if (!exclusive) {
                MemorySegment.copy(send, 0, recv, 0, bytes);
            }
        });
        boolean resultSet = !exclusive;
        for (int mask = 1; mask < size; mask <<= 1) {
            int partner = me ^ mask;
            if (partner >= size) {
                continue;
            }
            s.send(partial, m.world(partner)).receive(incoming, m.world(partner)).endRound();
            if (partner < me) {
                boolean first = !resultSet;
                s.local(() -> {
                    op.combine(incoming, partial, count);
                    if (first) {
                        MemorySegment.copy(incoming, 0, recv, 0, bytes);
                    } else {
                        op.combine(incoming, recv, count);
                    }
                });
                resultSet = true;
            } else {
                s.local(() -> {
                    op.combine(partial, incoming, count);
                    MemorySegment.copy(incoming, 0, partial, 0, bytes);
                });
            }
        }
        s.endRound();
    }
}
