package org.weft.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The first call decides, once; a later one reads the decision; closing releases what was made. */
class DecidedOnceTest {
    @Test
    void theFirstCallMakesTheResourceOnceAndClosingReleasesIt() {
        AtomicInteger setUps = new AtomicInteger();
        List<Object> released = new ArrayList<>();
        Object made = new Object();
        DecidedOnce<Object> holder = new DecidedOnce<>(() -> {
            setUps.incrementAndGet();
            return made;
        }, released::add);
        assertNull(holder.made(), "nothing before the first call");
        assertSame(made, holder.get());
        assertSame(made, holder.get());
        assertSame(made, holder.made());
        assertEquals(1, setUps.get());
        holder.close();
        holder.close();
        assertEquals(List.of(made), released);
        assertNull(holder.get(), "none after closing");
        assertEquals(1, setUps.get());
    }

    @Test
    void aSetUpThatDoesWithoutIsAskedOnceAndNothingIsReleased() {
        AtomicInteger setUps = new AtomicInteger();
        List<Object> released = new ArrayList<>();
        DecidedOnce<Object> holder = new DecidedOnce<>(() -> {
            setUps.incrementAndGet();
            return null;
        }, released::add);
        assertNull(holder.get());
        assertNull(holder.get());
        holder.close();
        assertEquals(1, setUps.get());
        assertEquals(List.of(), released);
    }
}
