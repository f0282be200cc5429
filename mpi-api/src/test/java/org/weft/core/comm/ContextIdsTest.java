package org.weft.core.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The free-id mask: the lowest common pair is taken, freed pairs come back, a missing offer repeats the round. */
class ContextIdsTest {
    @Test
    void takesTheLowestPairFreeOnBothProcessesAndGetsItBack() {
        ContextIds p = new ContextIds();
        ContextIds q = new ContextIds();
        Object first = new Object();
        p.enter(first, 0);
        int[] alone = p.offer(first);
        assertArrayEquals(new int[] {4}, p.take(first, alone, 1, true)); // pair 4/5 now used on p only
        p.leave(first);

        Object agreement = new Object();
        p.enter(agreement, 0);
        q.enter(agreement, 0);
        int[] offer = and(p.offer(agreement), q.offer(agreement));
        assertArrayEquals(new int[] {6, 8}, p.take(agreement, offer.clone(), 2, true));
        assertArrayEquals(new int[] {6, 8}, q.take(agreement, offer.clone(), 2, true));
        assertTrue(q.isFree(4));
        p.release(4);
        assertTrue(p.isFree(4));
        assertFalse(p.isFree(6));
    }

    @Test
    void onlyTheFirstAgreementByPriorityOffersItsMask() {
        ContextIds p = new ContextIds();
        Object low = new Object();
        Object high = new Object();
        p.enter(high, 10);
        p.enter(low, 2);
        assertNull(p.take(high, p.offer(high), 1, true), "the later priority offers nothing and retries");
        assertArrayEquals(new int[] {4}, p.take(low, p.offer(low), 1, true));
        p.leave(low);
        assertArrayEquals(new int[] {6}, p.take(high, p.offer(high), 1, true));
    }

    private static int[] and(int[] x, int[] y) {
        int[] r = x.clone();
        for (int i = 0; i < r.length; i++) {
            r[i] &= y[i];
        }
        return r;
    }
}
