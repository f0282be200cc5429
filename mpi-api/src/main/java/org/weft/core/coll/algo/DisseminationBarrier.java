package org.weft.core.coll.algo;

import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Dissemination barrier (Hensgen, Finkel and Manber): in round k each member signals member + 2^k and waits for
 * member − 2^k, so after ⌈log2 p⌉ rounds every member has heard, directly or not, from every other. Any p.
 */
public final class DisseminationBarrier {
    private DisseminationBarrier() {
    }

    /** Appends the rounds of a barrier among {@code m}. */
    public static void append(Schedule s, Members m) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        for (int distance = 1; distance < size; distance <<= 1) {
            s.signal(m.world((m.me() + distance) % size));
            s.awaitSignal(m.world((m.me() - distance + size) % size));
            s.endRound();
        }
    }
}
