package org.weft.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** SLURM's compressed host lists, expanded as {@code scontrol show hostnames} does. */
class HostlistTest {
    @Test
    void bracketsHoldNumbersAndRangesThatKeepTheirWidth() {
        assertEquals(List.of("n1", "n2", "n3", "n07", "n08", "login"), Hostlist.expand("n[1-3,07-08],login"));
        assertEquals(List.of("node098", "node099", "node100"), Hostlist.expand("node[098-100]"));
        assertEquals(List.of("sl-n1"), Hostlist.expand("sl-n1"));
    }

    @Test
    void severalBracketsInOneNameMultiplyAndCommasInsideThemDoNotSplit() {
        assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2", "a-x", "b"), Hostlist.expand("r[1-2]n[1-2],a-x,b"));
        assertEquals(List.of("gpu1-ib", "gpu3-ib"), Hostlist.expand("gpu[1,3]-ib"));
    }

    @Test
    void nonsenseIsRefusedNamingTheList() {
        for (String bad : List.of("n[1-2", "n]1[", "n[a-b]", "n[3-1]", "n[[1]]")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Hostlist.expand(bad));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }
}
