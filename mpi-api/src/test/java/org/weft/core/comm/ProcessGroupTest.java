package org.weft.core.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;

/** Group algebra (MPI 4.1 §7.3): orders of results and error classes of bad ranks and ranges. */
class ProcessGroupTest {
    private final ProcessGroup a = ProcessGroup.of(5, 1, 3, 7);
    private final ProcessGroup b = ProcessGroup.of(3, 2, 5);

    @Test
    void setOperationsKeepTheFirstGroupsOrder() {
        assertArrayEquals(new int[] {5, 1, 3, 7, 2}, a.union(b).worldRanks());
        assertArrayEquals(new int[] {5, 3}, a.intersection(b).worldRanks());
        assertArrayEquals(new int[] {1, 7}, a.difference(b).worldRanks());
        assertEquals(0, a.intersection(ProcessGroup.empty()).size());
        assertEquals(ProcessGroup.SIMILAR, a.compare(ProcessGroup.of(7, 5, 3, 1)));
        assertEquals(ProcessGroup.IDENT, a.compare(ProcessGroup.of(5, 1, 3, 7)));
        assertEquals(ProcessGroup.UNEQUAL, a.compare(b));
    }

    @Test
    void includeExcludeAndRanges() {
        assertArrayEquals(new int[] {7, 5}, a.include(new int[] {3, 0}).worldRanks());
        assertArrayEquals(new int[] {1, 7}, a.exclude(new int[] {2, 0}).worldRanks());
        ProcessGroup ten = ProcessGroup.world(10);
        assertArrayEquals(new int[] {0, 3, 6, 9, 8, 7}, ten.includeRanges(new int[][] {{0, 9, 3}, {8, 7, -1}})
                .worldRanks());
        assertArrayEquals(new int[] {1, 2, 4, 5, 7, 8}, ten.excludeRanges(new int[][] {{0, 9, 3}}).worldRanks());
        assertArrayEquals(new int[] {1, Ranks.UNDEFINED, Ranks.PROC_NULL},
                a.translate(new int[] {1, 3, Ranks.PROC_NULL}, ProcessGroup.of(5, 1)));
    }

    @Test
    void badRanksAreErrRankAndBadRangesErrArg() {
        assertEquals(ErrorClass.ERR_RANK, errorOf(() -> a.include(new int[] {4})));
        assertEquals(ErrorClass.ERR_RANK, errorOf(() -> a.include(new int[] {1, 1})));
        assertEquals(ErrorClass.ERR_RANK, errorOf(() -> a.exclude(new int[] {-1})));
        assertEquals(ErrorClass.ERR_ARG, errorOf(() -> a.includeRanges(new int[][] {{0, 2, 0}})));
        assertEquals(ErrorClass.ERR_ARG, errorOf(() -> a.includeRanges(new int[][] {{2, 0, 1}})));
        assertEquals(ErrorClass.ERR_RANK, errorOf(() -> a.excludeRanges(new int[][] {{0, 4, 1}})));
    }

    private static int errorOf(Runnable call) {
        return assertThrows(DeviceException.class, call::run).errorClass();
    }
}
