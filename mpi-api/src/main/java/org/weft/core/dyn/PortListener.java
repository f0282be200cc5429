package org.weft.core.dyn;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.weft.adi.net.HostAddresses;

/**
 * The listener of one open port: a socket on every address of this host, where the connecting group's root
 * knocks ({@link PortSession}). A connection that does not prove the port's token is refused and the accept goes
 * on waiting, so a stranger cannot spoil it; a line on standard error says who was refused and why.
 */
final class PortListener implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ServerSocket server;
    private final byte[] token = new byte[PortName.TOKEN_BYTES];

    private PortListener(ServerSocket server) {
        this.server = server;
        RANDOM.nextBytes(token);
    }

    /** Listens on a port of its own, on every address (another job may run on another host). */
    static PortListener open() throws IOException {
        ServerSocket server = new ServerSocket();
        server.bind(new InetSocketAddress(0), 16);
        return new PortListener(server);
    }

    /** The port's name: its listener's addresses (loopback first) and its token. */
    PortName name(String jobId, int owner) {
        List<String> addresses = new ArrayList<>();
        addresses.add("127.0.0.1:" + server.getLocalPort());
        for (String host : HostAddresses.nonLoopback()) {
            addresses.add(host + ":" + server.getLocalPort());
        }
        return new PortName(jobId, owner, addresses, token);
    }

    /** Waits for a connection that proves the token and returns its session; refuses the others. */
    PortSession accept() throws IOException {
        while (true) {
            Socket socket = server.accept();
            try {
                return PortSession.asAcceptor(socket, token);
            } catch (PortSession.Refused e) {
                System.err.println("weft: a port refused a connection from " + socket.getRemoteSocketAddress()
                        + ": " + e.getMessage());
                socket.close();
            } catch (IOException e) {
                socket.close(); // it went away during the handshake: wait for the next
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
