package org.weft.tests.sites;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.LargeMessages;
import org.weft.tests.programs.SelfAndRing;

/**
 * {@code tcp_tls}: the tcp connections between two sites are TLS 1.3 and large messages cross them whole; a job of
 * one site over tcp stays plaintext and makes no keys. What is on the wire is checked in the module's own test
 * ({@code TcpTlsTest}, through a tapping proxy); here the ranks are real processes and the report says what ran.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EncryptedSitesJobTest {
    @Test
    void largeMessagesBetweenTwoSitesCrossOverTlsAndTheReportSaysSo() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:1", "--site", "b:1", "--site-launcher",
                "a=weft", "--site-launcher", "b=weft", LargeMessages.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("LARGE OK"), result.output());
        for (int rank = 0; rank < 2; rank++) {
            // the shared connection and the streams its large messages were striped over: all TLS
            String line = "(?s).*rank " + rank + ": tcp_tls cross-site: [1-9][0-9]* connections TLS 1.3 \\(AES-GCM\\),"
                    + " 0 plaintext; credentials made in .*";
            assertTrue(result.stdout().matches(line), () -> "missing '" + line + "' in:\n" + result.stdout());
        }
    }

    /**
     * Two ranks a site, a ring: ranks 1 and 3 send their last message across (eager, complete once the link took
     * it) and go into MPI_Finalize at once, before their TLS handshakes are done. Their peers wait for those
     * messages, so the finalizing ranks must go on serving the handshake; blocked in the finalize barrier, they
     * left both rings hanging (and so did the report's gathering, a bootstrap exchange before that barrier).
     */
    @Test
    void aRankThatFinalizesRightAfterItsLastEagerSendAcrossStillDeliversIt() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "--site", "a:2", "--site", "b:2", "--site-launcher",
                "a=weft", "--site-launcher", "b=weft", SelfAndRing.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("rank 1: tcp_tls cross-site: 1 connections TLS 1.3"), result.output());
    }

    @Test
    void aJobOfOneSiteOverTcpIsPlaintextAndMakesNoKeys() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--report", "-np", "2", "--param", "methods=self,tcp",
                LargeMessages.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("LARGE OK"), result.output());
        String line = "rank 0: tcp_tls cross-site: 0 connections TLS 1.3 (AES-GCM), 1 plaintext; no credentials made";
        assertTrue(result.stdout().contains(line), () -> "missing '" + line + "' in:\n" + result.stdout());
    }
}
