package org.weft.adi.net;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The IPv4 addresses of this host's interfaces, and the order in which to try a peer's addresses. A process of a
 * job that spans hosts advertises every address of its host (it cannot know which one a peer can reach), and a
 * dialer tries first the addresses on a subnet of one of its own interfaces, as Open MPI's {@code btl/tcp} does:
 * on a host with a private cluster network and a public one, ranks then meet on the private one.
 */
public final class HostAddresses {
    private HostAddresses() {
    }

    /** The IPv4 addresses of this host's interfaces that are up, loopback excluded, in interface order. */
    public static List<String> nonLoopback() {
        List<String> addresses = new ArrayList<>();
        for (InterfaceAddress a : interfaceAddresses()) {
            if (!a.getAddress().isLoopbackAddress()) {
                addresses.add(a.getAddress().getHostAddress());
            }
        }
        return addresses;
    }

    /** Whether {@code host} (a name or a literal address) names this host's loopback. */
    public static boolean isLoopback(String host) {
        if (host.equals("localhost") || host.equals("::1")) {
            return true;
        }
        try {
            return isLiteral(host) && InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Whether {@code host} is a literal IPv4 address of this host: a loopback address or an interface's. */
    public static boolean isOwnLiteral(String host) {
        if (!isLiteral(host)) {
            return false;
        }
        try {
            InetAddress address = InetAddress.getByName(host);
            if (address.isLoopbackAddress()) {
                return true;
            }
            for (InterfaceAddress own : interfaceAddresses()) {
                if (own.getAddress().equals(address)) {
                    return true;
                }
            }
            return false;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * The host of {@code host:port}, also of {@code [v6-address]:port} (without the brackets).
     *
     * @throws IllegalArgumentException when {@code hostPort} has no host or no port
     */
    public static String hostOf(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("address '" + hostPort + "' is not host:port");
        }
        String host = hostPort.substring(0, colon);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /**
     * {@code candidates} (names or literal addresses) reordered for dialing: first those on the same subnet as an
     * interface of this host (loopback included), then the others, each group in the given order. One candidate is
     * its own order: every rank of a one-host job dials its launcher's one address, and reading this host's interfaces
     * (and the regular expression of a literal) cost each ~3 ms of its start-up CPU.
     */
    public static List<String> inDialOrder(List<String> candidates) {
        if (candidates.size() < 2) {
            return List.copyOf(candidates);
        }
        List<InterfaceAddress> own = interfaceAddresses();
        List<String> near = new ArrayList<>();
        List<String> far = new ArrayList<>();
        for (String candidate : candidates) {
            (isOnSubnetOf(candidate, own) ? near : far).add(candidate);
        }
        near.addAll(far);
        return near;
    }

    private static boolean isOnSubnetOf(String candidate, List<InterfaceAddress> own) {
        if (!isLiteral(candidate)) {
            return false; // not resolved here: a name keeps its place among the far ones
        }
        byte[] address;
        try {
            address = InetAddress.getByName(candidate).getAddress();
        } catch (UnknownHostException e) {
            return false;
        }
        for (InterfaceAddress a : own) {
            if (samePrefix(address, a.getAddress().getAddress(), a.getNetworkPrefixLength())) {
                return true;
            }
        }
        return false;
    }

    static boolean samePrefix(byte[] x, byte[] y, int prefixLength) {
        if (x.length != y.length) {
            return false;
        }
        for (int bit = 0; bit < prefixLength && bit < x.length * 8; bit++) {
            int mask = 0x80 >>> (bit & 7);
            if ((x[bit >>> 3] & mask) != (y[bit >>> 3] & mask)) {
                return false;
            }
        }
        return true;
    }

    /** A dotted IPv4 literal: resolving it never asks a name service. */
    private static boolean isLiteral(String host) {
        return host.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }

    private static List<InterfaceAddress> interfaceAddresses() {
        List<InterfaceAddress> addresses = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp()) {
                    continue;
                }
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    if (a.getAddress() instanceof Inet4Address) {
                        addresses.add(a);
                    }
                }
            }
        } catch (SocketException e) {
            // no interface list: nothing is near, every candidate is tried in the given order
        }
        return addresses;
    }
}
