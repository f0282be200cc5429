package org.weft.adi.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffIdleStrategyTest {
    @Test
    void afterItsSpinsAndYieldsItParksThroughItsParkerForDoublingPeriodsUpToTheCeiling() {
        List<Long> parks = new ArrayList<>();
        BackoffIdleStrategy idle = new BackoffIdleStrategy(3, 2, 1_000, 5_000, parks::add);
        for (int i = 0; i < 5 + 4; i++) {
            idle.idle(0);
        }
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 5_000L), parks);
        idle.idle(1); // work resets the back-off
        parks.clear();
        for (int i = 0; i < 5 + 1; i++) {
            idle.idle(0);
        }
        assertEquals(List.of(1_000L), parks);
    }

    @Test
    void withMoreRanksThanCoresItYieldsFirstAndParksAfterItsFiftyYieldsWithoutSpinning() {
        List<Long> parks = new ArrayList<>();
        BackoffIdleStrategy idle = BackoffIdleStrategy.oversubscribed(parks::add);
        for (int i = 0; i < 50; i++) {
            idle.idle(0);
        }
        assertEquals(List.of(), parks, "fifty yields first");
        idle.idle(0);
        assertEquals(List.of(1_000L), parks, "then it parks: no spins came before the yields");
    }

    @Test
    void aRankWithACoreOfItsOwnSpinsForItsTimeNotForACountOfPasses() {
        List<Long> parks = new ArrayList<>();
        BackoffIdleStrategy idle = new BackoffIdleStrategy(Long.MAX_VALUE, 2_000_000, 0, 1_000, 1_000, parks::add);
        long start = System.nanoTime();
        long passes = 0;
        while (parks.isEmpty()) {
            idle.idle(0);
            passes++;
            assertTrue(System.nanoTime() - start < 10_000_000_000L, "the spin phase ends");
        }
        long spun = System.nanoTime() - start;
        assertTrue(spun >= 2_000_000, "it spun its 2 ms first: " + spun + " ns, " + passes + " passes");
        idle.idle(1); // work resets the clock too
        parks.clear();
        idle.idle(0);
        assertEquals(List.of(), parks, "a new wait spins again");
    }
}
