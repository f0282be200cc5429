package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.LookupAfterEagerSend;

/**
 * A process blocked in a request to the launcher (names, ports, spawn) goes on progressing the device, as one in
 * {@code MPI_Finalize} does: across two sites (TLS by default), rank 0's eager send completes while its link's
 * handshake is still pending, and rank 0 then looks up, again and again, a name that rank 1 publishes only once
 * that message arrived. Blocked in those requests without polling, rank 0 never finished the handshake and both
 * waited for ever.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ProgressingRequestsJobTest {
    @Test
    void aRankThatLooksUpRightAfterItsEagerSendAcrossStillDeliversIt() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:1", "--site", "b:1", "--site-launcher",
                "a=weft", "--site-launcher", "b=weft", LookupAfterEagerSend.class.getName())
                .timeout(Duration.ofSeconds(120)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("CONNECTED rank 0 remote 1 got 42"), result.output());
        assertTrue(result.stdout().contains("CONNECTED rank 1 remote 1 got 42"), result.output());
        assertTrue(result.stdout().contains("rank 0: tcp_tls cross-site: 1 connections TLS 1.3"), result.output());
    }
}
