package org.weft.mm.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JobReportTest {
    @Test
    void sitesAreNamedWithTheirRankRangesAndAJobWithoutSitesSaysNothing() {
        String[] sites = {"a", "a", "b", "c", "c", "c"};
        assertEquals("a = ranks 0-1, b = rank 2, c = ranks 3-5", JobReport.siteRanges(6, r -> sites[r]));
        assertEquals("", JobReport.siteRanges(4, r -> ""));
    }
}
