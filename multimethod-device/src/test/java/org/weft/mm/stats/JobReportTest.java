package org.weft.mm.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.weft.adi.DeviceReport;

class JobReportTest {
    @Test
    void sitesAreNamedWithTheirRankRangesAndAJobWithoutSitesSaysNothing() {
        String[] sites = {"a", "a", "b", "c", "c", "c"};
        assertEquals("a = ranks 0-1, b = rank 2, c = ranks 3-5", JobReport.siteRanges(6, r -> sites[r]));
        assertEquals("", JobReport.siteRanges(4, r -> ""));
    }

    @Test
    void aModulesNotesTravelWithItsRankAndAreListedUnderIt() {
        DeviceReport mine = new DeviceReport(3, "h", "yield", List.of("tcp"),
                List.of(new DeviceReport.MethodReport("tcp", 1, 2, 3, 4, 5, 6)), Map.of("shm", "no /dev/shm"),
                List.of("tcp to rank 0: aggregation adaptive, 12 RSRs in 3 frames (4.0 a frame)"));
        DeviceReport decoded = JobReport.decode(JobReport.encode(mine));
        assertEquals(mine, decoded);
        String formatted = JobReport.format(List.of(decoded), r -> "");
        assertTrue(formatted.contains("rank 3: tcp to rank 0: aggregation adaptive, 12 RSRs in 3 frames"), formatted);
    }
}
