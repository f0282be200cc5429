package org.weft.adi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a process finds its global rank: from weftrun directly, or from a site's base plus its native rank. */
class WorldConfigTest {
    @Test
    void weftRankWinsOverEverythingElse() {
        assertEquals(3, WorldConfig.rankFrom(Map.of("WEFT_RANK", "3", "WEFT_RANK_BASE", "10",
                "OMPI_COMM_WORLD_RANK", "1")));
    }

    @Test
    void aNativeSiteRankIsTheBasePlusTheNativeRankInLauncherOrder() {
        assertEquals(11, WorldConfig.rankFrom(Map.of("WEFT_RANK_BASE", "10", "OMPI_COMM_WORLD_RANK", "1",
                "PMI_RANK", "5", "PMIX_RANK", "6")));
        assertEquals(15, WorldConfig.rankFrom(Map.of("WEFT_RANK_BASE", "10", "PMI_RANK", "5", "PMIX_RANK", "6")));
        assertEquals(16, WorldConfig.rankFrom(Map.of("WEFT_RANK_BASE", "10", "PMIX_RANK", "6")));
    }

    @Test
    void aBaseWithoutANativeRankIsAClearError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> WorldConfig.rankFrom(Map.of("WEFT_RANK_BASE", "2")));
        assertTrue(e.getMessage().contains("OMPI_COMM_WORLD_RANK"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> WorldConfig.rankFrom(Map.of()));
    }

    @Test
    void aJobIsOnOneHostWhenItsLauncherIsReachedOverLoopbackOnly() {
        assertTrue(WorldConfig.singleton().isOneHost());
        assertTrue(world("127.0.0.1:4000").isOneHost());
        assertTrue(world("localhost:4000").isOneHost());
        assertFalse(world("10.1.2.3:4000").isOneHost());
        assertFalse(world("127.0.0.1:4000,10.1.2.3:4000").isOneHost());
    }

    private static WorldConfig world(String bootstrap) {
        return new WorldConfig(0, 2, "job", bootstrap, "secret", Map.of());
    }
}
