package org.weft.mm.match;

import org.junit.jupiter.api.Test;
import org.weft.adi.Ranks;
import org.weft.mm.progress.Waiters;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MatchingEngineTest {
    private final MatchingEngine engine = new MatchingEngine();
    private final Waiters waiters = new Waiters();

    private RecvRequest post(int source, int tag, int context) {
        RecvRequest r = new RecvRequest(waiters).prepare(MemorySegment.ofArray(new byte[8]), source, tag, context);
        engine.addPosted(r);
        return r;
    }

    private UnexpectedMessage arrive(int source, int tag, int context) {
        UnexpectedMessage m = UnexpectedMessage.eager(source, tag, context, new byte[0], 0, false);
        engine.addUnexpected(m);
        return m;
    }

    @Test
    void postedReceivesMatchInPostingOrder() {
        RecvRequest any = post(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 0);
        RecvRequest specific = post(1, 5, 0);
        assertSame(any, engine.takePosted(1, 5, 0));
        assertSame(specific, engine.takePosted(1, 5, 0));
        assertNull(engine.takePosted(1, 5, 0));
    }

    @Test
    void contextsNeverMatchEachOther() {
        post(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 2);
        assertNull(engine.takePosted(0, 0, 3));
        arrive(0, 0, 3);
        assertNull(engine.takeUnexpected(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 2));
    }

    @Test
    void unexpectedMessagesMatchInArrivalOrderWithWildcards() {
        UnexpectedMessage first = arrive(2, 7, 0);
        UnexpectedMessage second = arrive(1, 7, 0);
        UnexpectedMessage third = arrive(2, 8, 0);
        assertSame(third, engine.takeUnexpected(2, 8, 0));
        assertSame(first, engine.findUnexpected(Ranks.ANY_SOURCE, 7, 0));
        assertSame(first, engine.takeUnexpected(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 0));
        assertSame(second, engine.takeUnexpected(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 0));
        assertEquals(0, engine.unexpectedCount());
    }

    @Test
    void removePostedOnlyBeforeMatch() {
        RecvRequest r = post(0, 1, 0);
        assertTrue(engine.removePosted(r));
        assertFalse(engine.removePosted(r));
    }
}
