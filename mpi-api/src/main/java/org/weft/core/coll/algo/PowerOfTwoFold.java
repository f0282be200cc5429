package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * How the power-of-two allreduce algorithms run on any p (MPICH's fold): with p' the largest power of two ≤ p
 * and r = p − p', the first 2r members pair up and the even one hands its value to the odd one (combined with
 * the lower member's value on the left, so rank order holds); the p' remaining members run the algorithm with
 * new ranks 0..p'−1; afterwards each odd member hands the result back to its even partner.
 *
 * @param pof2    p'
 * @param rem     r
 * @param newRank this member's rank among the p' (−1 for an even member that folded in)
 */
record PowerOfTwoFold(Members members, int pof2, int rem, int newRank) {
    /**
     * Appends the fold-in of {@code send}: an even member of the first 2r sends it; its odd partner combines it with
     * its own {@code send} into {@code recv} (then {@link #folded}), using {@code incoming} to receive.
     */
    static PowerOfTwoFold foldIn(Schedule s, Members m, MemorySegment send, MemorySegment recv,
                                 MemorySegment incoming, int count, Combiner op) {
        int me = m.me();
        int pof2 = Integer.highestOneBit(m.size());
        int rem = m.size() - pof2;
        if (me >= 2 * rem) {
            return new PowerOfTwoFold(m, pof2, rem, me - rem);
        }
        if (me % 2 == 0) {
            s.send(send, m.world(me + 1)).endRound();
            return new PowerOfTwoFold(m, pof2, rem, -1);
        }
        s.receive(incoming, m.world(me - 1)).endRound();
        s.local(() -> op.combineInto(incoming, send, recv, count));
        return new PowerOfTwoFold(m, pof2, rem, me / 2);
    }

    /** True when this member combined a folded-in partner's value into {@code recv}: it holds its part there. */
    boolean folded() {
        return newRank >= 0 && members.me() < 2 * rem;
    }

    /** World rank of the member with new rank {@code newRank}. */
    int world(int newRank) {
        return members.world(newRank < rem ? newRank * 2 + 1 : newRank + rem);
    }

    /** Appends the hand-back of the result in {@code recv} to the members that folded in. */
    void foldOut(Schedule s, MemorySegment recv) {
        int me = members.me();
        if (me < 2 * rem) {
            if (newRank >= 0) {
                s.send(recv, members.world(me - 1));
            } else {
                s.receive(recv, members.world(me + 1));
            }
        }
        s.endRound();
    }
}
