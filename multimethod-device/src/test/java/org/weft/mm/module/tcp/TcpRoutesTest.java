package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.mm.module.ModuleTestJob;

/**
 * The seams the relay method builds on: a link whose {@link TcpRoute} dials somewhere else and writes a preamble
 * before its HELLO, and a peer that {@link TcpModule#admit}s a connection it made itself as if it had accepted it.
 * A forwarder in the test joins the two connections, as a relay does.
 */
@Timeout(60)
class TcpRoutesTest {
    private static final byte[] PREAMBLE = "relay me".getBytes(StandardCharsets.US_ASCII);
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    @Test
    void aRoutedLinkReachesAPeerThatAdmittedTheForwardersConnection() throws Exception {
        try (ServerSocket forwarder = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket reverse = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            TcpAddress forwarderAddress = new TcpAddress("127.0.0.1", forwarder.getLocalPort());
            TcpRoutes throughForwarder = (peer, remote) -> new TcpRoute(forwarderAddress, () -> PREAMBLE,
                    "via the test");
            try (ModuleTestJob job = ModuleTestJob.start(2, rank -> rank == 0
                    ? new TcpModule("routed", log::add, throughForwarder) : new TcpModule(log::add), Map.of())) {
                job.send(job.link(0, 1), 1, 7, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[] {1, 2}));
                Socket fromRank0 = forwarder.accept();
                assertArrayEquals(PREAMBLE, fromRank0.getInputStream().readNBytes(PREAMBLE.length));
                SocketChannel dialledByRank1 = SocketChannel.open(new InetSocketAddress("127.0.0.1",
                        reverse.getLocalPort()));
                Socket toRank1 = reverse.accept();
                ((TcpModule) job.module(1)).admit(dialledByRank1, "");
                pump(fromRank0, toRank1);
                pump(toRank1, fromRank0);
                job.awaitDelivered(1, 1, WAIT);
                assertEquals(0, job.sink(1).received().getFirst().source());
                // rank 1 answers on the connection it admitted: the pair shares it
                job.send(job.module(1).connect(0, job.descriptor(0)), 1, 8, ByteBuffer.allocate(0),
                        MemorySegment.ofArray(new byte[] {3}));
                job.awaitDelivered(0, 1, WAIT);
                assertEquals("routed", job.link(0, 1).methodName());
                fromRank0.close();
                toRank1.close();
            }
        }
        assertEquals(List.of(), log.stream().filter(line -> !line.contains("closed unexpectedly")).toList());
    }

    private static void pump(Socket from, Socket to) {
        Thread.ofVirtual().start(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the test closed them
            }
        });
    }
}
