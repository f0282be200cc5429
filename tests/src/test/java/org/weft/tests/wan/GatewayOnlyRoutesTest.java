package org.weft.tests.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code weft-wan up --no-route}: a compute namespace has no route to the other site, its gateway has one (through
 * the emulator); and {@code weft-wan down} leaves nothing behind.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GatewayOnlyRoutesTest {
    private static final WideArea WAN = new WideArea("wtn-", "10.83");
    private static final String PORT = "7072";

    @Test
    void onlyTheGatewayReachesTheOtherSiteAndDownRemovesEverything() throws Exception {
        WideArea.assumeItCanBeMade();
        Process server = null;
        try {
            WAN.up("--sites", "2", "--hosts", "1", "--no-route", "--rtt", "10ms");
            server = WAN.serve(WAN.host("bgw"), Integer.parseInt(PORT));
            String farGateway = WAN.address(2, 254);
            assertEquals(1, WAN.probeStatus(WAN.host("a1"), "connect", farGateway, PORT, "3000"),
                    "a compute namespace reached the other site");
            assertEquals("connected", WAN.probe(WAN.host("agw"), "connect", farGateway, PORT, "3000"));
            Thread.sleep(1500); // the emulator's statistics come every second
            assertTrue(WAN.packetsCarried("a", "b") > 0, "the gateway's connection did not cross the emulator:\n"
                    + WAN.status());
        } finally {
            if (server != null) {
                server.destroyForcibly();
            }
            WAN.down();
        }
        assertEquals(List.of(), WAN.leftovers());
    }
}
