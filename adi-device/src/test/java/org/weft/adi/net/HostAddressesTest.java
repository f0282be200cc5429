package org.weft.adi.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which addresses a process advertises and in which order it dials a peer's. */
class HostAddressesTest {
    @Test
    void aPrefixComparesOnlyItsLeadingBits() {
        byte[] a = {10, 77, 0, 2};
        assertTrue(HostAddresses.samePrefix(a, new byte[] {10, 77, 0, (byte) 200}, 24));
        assertFalse(HostAddresses.samePrefix(a, new byte[] {10, 77, 1, 2}, 24));
        assertTrue(HostAddresses.samePrefix(a, new byte[] {10, 77, 1, 2}, 16));
        assertTrue(HostAddresses.samePrefix(a, new byte[] {10, 64, 0, 0}, 10));
        assertFalse(HostAddresses.samePrefix(a, new byte[] {10, (byte) 128, 0, 0}, 9));
        assertFalse(HostAddresses.samePrefix(a, new byte[16], 0), "an IPv6 address is never on an IPv4 subnet");
    }

    @Test
    void addressesOnOneOfThisHostsSubnetsAreDialledFirstTheRestKeepTheirOrder() {
        // 198.51.100.0/24 and 203.0.113.0/24 are documentation networks, on no interface of a test machine
        assertEquals(List.of("127.0.0.1", "198.51.100.7", "some-name", "203.0.113.9"),
                HostAddresses.inDialOrder(List.of("198.51.100.7", "127.0.0.1", "some-name", "203.0.113.9")));
    }

    @Test
    void ownLiteralsAreLoopbackAndThisHostsInterfaceAddressesOnly() {
        assertTrue(HostAddresses.isOwnLiteral("127.0.0.1"));
        for (String address : HostAddresses.nonLoopback()) {
            assertTrue(HostAddresses.isOwnLiteral(address), address);
        }
        assertFalse(HostAddresses.isOwnLiteral("198.51.100.7"));
        assertFalse(HostAddresses.isOwnLiteral("localhost"), "a name, which might resolve anywhere");
    }

    @Test
    void advertisedAddressesAreNeverLoopback() {
        for (String address : HostAddresses.nonLoopback()) {
            assertFalse(HostAddresses.isLoopback(address), address);
        }
        assertTrue(HostAddresses.isLoopback("127.0.0.1"));
        assertTrue(HostAddresses.isLoopback("localhost"));
        assertFalse(HostAddresses.isLoopback("198.51.100.7"));
    }
}
