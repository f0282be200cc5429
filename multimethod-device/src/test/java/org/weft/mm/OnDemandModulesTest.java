package org.weft.mm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.weft.adi.Locality;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.StubModule;

/**
 * The device starts an on-demand module (tcp) only when the modules that started first leave some pair of ranks
 * unconnected: {@link MultimethodDevice#connectsAll} decides it from the business cards every rank received.
 */
class OnDemandModulesTest {
    /** Connects two ranks whose descriptors carry the same bytes (as shm does for one host, job and site). */
    private static final CommModule SAME_BYTES = new StubModule("same") {
        @Override
        public boolean connects(int rankA, Descriptor a, int rankB, Descriptor b) {
            return Arrays.equals(a.data(), b.data());
        }
    };
    /** Connects each rank with itself only (as self does). */
    private static final CommModule ITSELF = new StubModule("itself") {
        @Override
        public boolean connects(int rankA, Descriptor a, int rankB, Descriptor b) {
            return rankA == rankB;
        }
    };

    @Test
    void oneMethodThatConnectsEveryPairIsEnough() {
        assertTrue(MultimethodDevice.connectsAll(List.of(SAME_BYTES), cards("same:x", "same:x", "same:x")));
    }

    @Test
    void aRankThatDoesNotOfferTheMethodNeedsTheOnDemandOnes() {
        assertFalse(MultimethodDevice.connectsAll(List.of(ITSELF, SAME_BYTES),
                cards("itself:0,same:x", "itself:1", "itself:2,same:x")));
    }

    @Test
    void aPairThatNoMethodConnectsNeedsTheOnDemandOnes() {
        assertFalse(MultimethodDevice.connectsAll(List.of(SAME_BYTES), cards("same:x", "same:y")));
    }

    @Test
    void eachRankMustReachItselfToo() {
        assertFalse(MultimethodDevice.connectsAll(List.of(SAME_BYTES), cards("same:x", "same:x", "itself:2")));
        assertTrue(MultimethodDevice.connectsAll(List.of(ITSELF), cards("itself:0")));
    }

    @Test
    void aModuleThatCannotTellConnectsNothing() {
        assertFalse(MultimethodDevice.connectsAll(List.of(new StubModule("same")), cards("same:x", "same:x")));
    }

    /** A card per rank from {@code method:data,...}. */
    private static BusinessCard[] cards(String... offers) {
        return Arrays.stream(offers).map(offer -> new BusinessCard(new Locality("", "host"),
                new DescriptorTable(Arrays.stream(offer.split(",")).map(d -> {
                    String[] parts = d.split(":");
                    return new Descriptor(parts[0], parts[1].getBytes());
                }).toList()))).toArray(BusinessCard[]::new);
    }
}
