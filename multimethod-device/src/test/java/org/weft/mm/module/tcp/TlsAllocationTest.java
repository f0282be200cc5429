package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.mm.module.ThreadDumps;
import org.weft.mm.tls.JobTls;

/**
 * A TLS connection in steady state allocates nothing of Weft's per message: a ping-pong of 112-byte frames (a
 * 64-byte payload and its header) between two {@link TlsWire}s over a loopback socket, in one thread, after a
 * warm-up. What the JDK's {@code SSLEngine} allocates inside each wrap and unwrap (1.3-1.5 KB a record on JDK 25: it
 * initialises its AES-GCM cipher afresh for every record's nonce) is counted apart by {@link CountingEngine} and is
 * not Weft's to remove; everything else the thread allocates is, and must stay below a byte a message. The least of
 * several windows counts (the JIT may still be compiling during one), as in {@code SteadyStateAllocationTest}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TlsAllocationTest {
    private static final int FRAME = 112;
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 5_000;
    private static final int WINDOWS = 8;
    /** How long a frame may take before the exchange counts as stuck: a frame takes microseconds, or ms at load 100. */
    private static final long STUCK_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final ByteBuffer out = ByteBuffer.allocate(FRAME);
    private final ByteBuffer in = ByteBuffer.allocate(FRAME);
    private long deadline;

    @Test
    void aTlsPingPongAllocatesNothingOutsideTheJdksEngine() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CountingEngine clientEngine = new CountingEngine(JobTls.create("job", "secret", 1).engine(0, true));
            CountingEngine serverEngine = new CountingEngine(JobTls.create("job", "secret", 0).engine(1, false));
            try (TlsWire client = TlsWire.client(open(SocketChannel.open(listener.getLocalAddress())), clientEngine,
                    new byte[0]);
                 TlsWire server = TlsWire.server(open(listener.accept()), serverEngine)) {
                deadline = System.nanoTime() + STUCK_NANOS;
                handshake(client, server);
                pingPong(client, server, WARM_UP);
                double leastWeft = Double.MAX_VALUE;
                double engineFloor = 0;
                for (int window = 0; window < WINDOWS && leastWeft >= 1.0; window++) {
                    long inside = clientEngine.insideBytes() + serverEngine.insideBytes();
                    long before = threads.getCurrentThreadAllocatedBytes();
                    pingPong(client, server, MEASURED);
                    long all = threads.getCurrentThreadAllocatedBytes() - before;
                    long engines = clientEngine.insideBytes() + serverEngine.insideBytes() - inside;
                    leastWeft = Math.min(leastWeft, (all - engines) / (2.0 * MEASURED));
                    engineFloor = engines / (2.0 * MEASURED);
                }
                System.out.printf("TLS ping-pong: %.2f bytes a message of Weft's, %.0f in the JDK's engines%n",
                        leastWeft, engineFloor);
                assertTrue(leastWeft < 1.0, "Weft's TLS path allocated " + leastWeft + " bytes a message outside"
                        + " the engines (which made " + engineFloor + "), in the best of " + WINDOWS + " windows");
            }
        }
    }

    private static SocketChannel open(SocketChannel socket) throws IOException {
        socket.configureBlocking(false);
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return socket;
    }

    private void handshake(TlsWire client, TlsWire server) throws IOException {
        while (!client.isEstablished() || !server.isEstablished()) {
            client.flush();
            server.flush();
            client.read(in.clear());
            server.read(in.clear());
            checkDeadline("the handshake");
        }
    }

    /** {@code rounds} frames from client to server and back, through the non-blocking wires. */
    private void pingPong(TlsWire client, TlsWire server, int rounds) throws IOException {
        for (int i = 0; i < rounds; i++) {
            send(client);
            receive(server);
            send(server);
            receive(client);
        }
    }

    private void send(TlsWire wire) throws IOException {
        deadline = System.nanoTime() + STUCK_NANOS;
        out.clear();
        while (out.hasRemaining()) {
            wire.write(out);
            checkDeadline("a write");
        }
        while (wire.hasPendingOutput()) {
            wire.flush();
            checkDeadline("a flush");
        }
    }

    private void receive(TlsWire wire) throws IOException {
        in.clear();
        while (in.hasRemaining()) {
            if (wire.read(in) < 0) {
                fail("the connection closed");
            }
            checkDeadline("a read");
        }
    }

    private void checkDeadline(String what) {
        if (System.nanoTime() - deadline > 0) {
            fail("TLS ping-pong stuck in " + what + "\n" + ThreadDumps.dump());
        }
    }
}
