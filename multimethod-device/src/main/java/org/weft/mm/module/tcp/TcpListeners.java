package org.weft.mm.module.tcp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.weft.adi.net.HostAddresses;

/**
 * Where the tcp server listens: on the addresses it advertises, all on one port (a descriptor carries one), so that
 * a rank of a job on one host is reachable on loopback only, and one of a job over hosts on its network addresses
 * only. When an advertised address is not one of this host's ({@code tcp_if_address} may name a host name, or an
 * address that a router forwards here), nobody can say where its connections arrive: the server then listens on
 * the wildcard address.
 */
final class TcpListeners {
    /** Tries to find a port free on every address before giving up (another process may take it in between). */
    private static final int ATTEMPTS = 5;

    private TcpListeners() {
    }

    /** Binds {@code bootstrap} as above; returns the listening channels (one port). */
    static List<Channel> bind(ServerBootstrap bootstrap, List<String> advertised) throws Exception {
        List<InetAddress> addresses = listenAddresses(advertised);
        for (int attempt = 1; ; attempt++) {
            List<Channel> bound = new ArrayList<>();
            try {
                int port = 0; // the first address picks an ephemeral port; the others take the same
                for (InetAddress address : addresses) {
                    Channel channel = bootstrap.bind(new InetSocketAddress(address, port)).sync().channel();
                    bound.add(channel);
                    port = ((InetSocketAddress) channel.localAddress()).getPort();
                }
                return bound;
            } catch (Exception e) { // Netty rethrows the bind's BindException as is
                bound.forEach(Channel::close);
                if (attempt == ATTEMPTS || addresses.size() == 1) {
                    throw e;
                }
            }
        }
    }

    /** The advertised addresses when each is a literal address of this host, else the wildcard address alone. */
    static List<InetAddress> listenAddresses(List<String> advertised) throws UnknownHostException {
        List<InetAddress> addresses = new ArrayList<>();
        for (String host : advertised) {
            if (!HostAddresses.isOwnLiteral(host)) {
                return List.of(new InetSocketAddress(0).getAddress());
            }
            addresses.add(InetAddress.getByName(host)); // a literal: no name service asked
        }
        return addresses;
    }
}
