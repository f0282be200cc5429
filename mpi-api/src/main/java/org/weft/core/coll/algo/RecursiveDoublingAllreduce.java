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

    /** Combines every member's {@code send} into every member's {@code recv} ({@code recv} may be {@code send}). */
    public static void append(Schedule s, Members m, MemorySegment send, MemorySegment recv, int count,
                              Combiner op) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        long bytes = send.byteSize();
        s.local(() -> MemorySegment.copy(send, 0, recv, 0, bytes));
        if (size == 1) {
            s.endRound();
            return;
        }
        int pof2 = Integer.highestOneBit(size);
        int rem = size - pof2;
        MemorySegment incoming = Blocks.scratch(bytes);
        int newRank;
        if (me < 2 * rem) {
            if (me % 2 == 0) {
                s.send(recv, m.world(me + 1)).endRound();
                newRank = -1;
            } else {
                s.receive(incoming, m.world(me - 1)).endRound();
                s.local(() -> op.combine(incoming, recv, count)); // the lower member's value on the left
                newRank = me / 2;
            }
        } else {
            newRank = me - rem;
        }
        if (newRank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int partnerNew = newRank ^ mask;
                int partner = partnerNew < rem ? partnerNew * 2 + 1 : partnerNew + rem;
                s.send(recv, m.world(partner)).receive(incoming, m.world(partner)).endRound();
                if (partner < me) {
                    s.local(() -> op.combine(incoming, recv, count));
                } else {
                    s.local(() -> {
                        op.combine(recv, incoming, count);
                        MemorySegment.copy(incoming, 0, recv, 0, bytes);
                    });
                }
            }
        }
        if (me < 2 * rem) {
            if (me % 2 == 1) {
                s.send(recv, m.world(me - 1));
            } else {
                s.receive(recv, m.world(me + 1));
            }
        }
        s.endRound();
    }
}
