package org.weft.wan;

import java.util.ArrayList;
import java.util.List;

/**
 * A site's end of the emulator: the TUN device its packets to other sites are routed into, and the IPv4 prefixes
 * that are the site's (a packet whose destination is in them is written to this device).
 */
final class SitePort {
    private final String site;
    private final String device;
    private final int[] networks;
    private final int[] masks;
    private TunDevice tun;
    long unroutable;

    private SitePort(String site, String device, int[] networks, int[] masks) {
        this.site = site;
        this.device = device;
        this.networks = networks;
        this.masks = masks;
    }

    /** {@code SITE=DEVICE,PREFIX[,PREFIX...]}, e.g. {@code a=tun-a,10.81.1.0/24}. */
    static SitePort parse(String text) {
        int eq = text.indexOf('=');
        String[] parts = text.substring(eq + 1).split(",");
        if (eq <= 0 || parts.length < 2) {
            throw new IllegalArgumentException("'" + text + "' is not SITE=DEVICE,PREFIX[,PREFIX...]");
        }
        List<int[]> prefixes = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            prefixes.add(prefix(parts[i].trim()));
        }
        return new SitePort(text.substring(0, eq), parts[0].trim(), prefixes.stream().mapToInt(p -> p[0]).toArray(),
                prefixes.stream().mapToInt(p -> p[1]).toArray());
    }

    String site() {
        return site;
    }

    TunDevice tun() {
        return tun;
    }

    void attach() {
        tun = TunDevice.attach(device);
    }

    /** Whether the IPv4 address {@code address} (as an int, big-endian order) is one of this site's. */
    boolean owns(int address) {
        for (int i = 0; i < networks.length; i++) {
            if ((address & masks[i]) == networks[i]) {
                return true;
            }
        }
        return false;
    }

    /** {@code A.B.C.D/N} as {network, mask}. */
    private static int[] prefix(String text) {
        int slash = text.indexOf('/');
        String[] octets = (slash < 0 ? text : text.substring(0, slash)).split("\\.");
        if (octets.length != 4) {
            throw new IllegalArgumentException("'" + text + "' is not an IPv4 prefix A.B.C.D/N");
        }
        int address = 0;
        for (String octet : octets) {
            int value = Integer.parseInt(octet);
            if (value < 0 || value > 255) {
                throw new IllegalArgumentException("'" + text + "' is not an IPv4 prefix A.B.C.D/N");
            }
            address = address << 8 | value;
        }
        int bits = slash < 0 ? 32 : Integer.parseInt(text.substring(slash + 1));
        if (bits < 0 || bits > 32) {
            throw new IllegalArgumentException("'" + text + "' has a prefix length outside 0..32");
        }
        int mask = bits == 0 ? 0 : -1 << (32 - bits);
        return new int[] {address & mask, mask};
    }

    @Override
    public String toString() {
        return "site " + site + " on " + device;
    }
}
