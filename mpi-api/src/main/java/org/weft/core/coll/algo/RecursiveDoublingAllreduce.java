package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Recursive-doubling allreduce (MPICH's short-message algorithm), correct for non-commutative operations: with
 * p' the largest power of two ≤ p, the first 2(p − p') members pair up and the even one hands its value to the
 * odd one; the p' remaining members then exchange partial results with the partner at distance 1, 2, 4, …, each
 * pair combining the lower members' part on the left; finally the odd members hand the result back. log2 p'
 * (+2) steps of the whole vector.
 */
public final class RecursiveDoublingAllreduce {
    private RecursiveDoublingAllreduce() {
    }

    /**
     * Combines every member's {@code send} into every member's {@code recv} ({@code recv} may be {@code send}). The
     * first step sends {@code send} itself and combines it with what arrives straight into {@code recv}
     * ({@link Combiner#combineInto}); no step copies a whole vector besides the transport's own.
     */
    public static void append(Schedule s, Members m, MemorySegment send, MemorySegment recv, int count,
                              Combiner op) {
        if (!m.includesMe()) {
            return;
        }
        long bytes = send.byteSize();
        if (m.size() == 1) {
            s.local(() -> MemorySegment.copy(send, 0, recv, 0, bytes));
            s.endRound();
            return;
        }
        MemorySegment incoming = Blocks.scratch(bytes);
        PowerOfTwoFold fold = PowerOfTwoFold.foldIn(s, m, send, recv, incoming, count, op);
        int newRank = fold.newRank();
        if (newRank >= 0) {
            // what this member holds so far: its own send, or recv once the fold or a step has combined into it
            MemorySegment held = fold.folded() ? recv : send;
            for (int mask = 1; mask < fold.pof2(); mask <<= 1) {
                int partnerNew = newRank ^ mask;
                int partner = fold.world(partnerNew);
                s.send(held, partner).receive(incoming, partner).endRound();
                MemorySegment mine = held;
                if (partnerNew < newRank) {
                    s.local(() -> op.combineInto(incoming, mine, recv, count));
                } else {
                    s.local(() -> op.combineInto(mine, incoming, recv, count));
                }
                held = recv;
            }
        }
        fold.foldOut(s, recv);
    }
}
