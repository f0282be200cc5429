package org.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Ranks onto hosts as mpirun maps by slot; this host is written "" (no remote shell). */
class HostPlacementTest {
    @Test
    void ranksFillTheSlotsInOrderAndWrapAroundWhenThereAreMore() {
        List<String> slots = HostPlacement.parseHosts("n1:2,n2");
        assertEquals(List.of("n1", "n1", "n2"), slots);
        assertEquals(List.of("n1", "n1", "n2", "n1", "n1"), HostPlacement.bySlot(slots, 5));
        assertEquals(List.of("", "", "n2"), HostPlacement.bySlot(List.of("localhost", "127.0.0.1", "n2"), 3));
        assertEquals(List.of("", ""), HostPlacement.bySlot(List.of(), 2));
    }

    @Test
    void eachSiteIsPlacedOnItsOwnHosts() {
        List<Site> sites = List.of(new Site("a", 0, 3, List.of("n1", "n2"), null),
                new Site("b", 3, 2, List.of(), null));
        assertEquals(List.of("n1", "n2", "n1", "", ""), HostPlacement.ofSites(sites));
    }

    @Test
    void aPlanKnowsWhichRanksRunElsewhere() {
        JobPlan plan = new JobPlan(4, List.of(), "Main", List.of(), Map.of(), List.of(), false, (Duration) null,
                List.of(), HostPlacement.bySlot(List.of("localhost", "n1", "n1", "n2"), 4));
        assertTrue(plan.spansHosts());
        assertEquals(List.of("n1", "n2"), plan.otherHosts());
        assertEquals(2, plan.ranksOn("n1"));
        assertEquals(1, plan.ranksOn(""));
        assertEquals("n2", plan.hostOf(3));
        assertFalse(new JobPlan(2, List.of(), "Main", List.of(), Map.of(), List.of(), false, null).spansHosts());
    }

    @Test
    void badHostListsAreClearErrors() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostPlacement.parseHosts("n1,,n2"))
                .getMessage().contains("an empty host name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostPlacement.parseHosts("n1:0"))
                .getMessage().contains("SLOTS must be a whole number of at least 1"));
    }
}
