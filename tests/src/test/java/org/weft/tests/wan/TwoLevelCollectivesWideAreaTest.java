package org.weft.tests.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.TwoLevelCollectivesCheck;

/**
 * Two sites of two ranks over the emulated link ({@code bin/weft-wan}, 20 ms round trip): the blocking barrier,
 * bcast, reduce and allreduce run in two levels — each site's part on its shared segment (no message inside a
 * site), the sites' leaders across once per site — with the right results, at 4 bytes and 64 KiB, from roots that
 * lead their site and one that does not. Needs root, /dev/net/tun and iproute2 (CI has them).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TwoLevelCollectivesWideAreaTest {
    @RegisterExtension
    static final WideArea WAN = WideArea.upForClass("ws7-", "10.77", "--sites", "2", "--hosts", "1", "--rtt", "20ms",
            "--rate", "100mbit");

    @Test
    void eachSitesPartGoesThroughItsSegmentAndTheSitesMeetOncePerSite() throws Exception {
        WeftrunJob.Result result = WAN.twoSiteJob(2, "--site-launcher", "a=weft", "--site-launcher", "b=weft", "-cp",
                WeftrunJob.classPath(), TwoLevelCollectivesCheck.class.getName()).timeout(Duration.ofSeconds(120))
                .start();
        assertEquals(0, result.exitCode(), result.output());
        TwoLevelCollectivesCheck.assertOncePerSite(result.stdout());
    }
}
