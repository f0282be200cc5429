package org.weft.launcher.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.BootstrapProtocol;
import org.weft.adi.bootstrap.SocketBootstrap;

/** The bootstrap service and its client over real loopback sockets, ranks as threads. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BootstrapServerTest {
    private static final String SECRET = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    private final BlockingQueue<BootstrapEvent> events = new LinkedBlockingQueue<>();

    private static WorldConfig config(BootstrapServer server, int rank, String secret) {
        return new WorldConfig(rank, server.size(), "test-job", server.address(), secret, Map.of());
    }

    private static SocketBootstrap client(BootstrapServer server, int rank, BlockingQueue<String> endings)
            throws IOException {
        return SocketBootstrap.connect(config(server, rank, SECRET), endings::add);
    }

    /**
     * The service listens where it tells ranks to connect, nowhere else: on loopback for a job on this host, on each
     * network address of this host for a job over hosts.
     */
    @Test
    void itListensOnTheAddressesItAdvertisesOnly() throws Exception {
        List<String> network = org.weft.adi.net.HostAddresses.nonLoopback();
        org.junit.jupiter.api.Assumptions.assumeFalse(network.isEmpty(), "needs a network address besides loopback");
        try (BootstrapServer server = BootstrapServer.start(1, SECRET, events::add)) {
            assertEquals("127.0.0.1:" + server.port(), server.address());
            new Socket("127.0.0.1", server.port()).close();
            for (String address : network) {
                assertThrows(java.net.ConnectException.class, () -> new Socket(address, server.port()), address);
            }
        }
        try (BootstrapServer server = BootstrapServer.start(1, SECRET, events::add, true)) {
            List<String> advertised = List.of(server.address().split(","));
            assertEquals(network, advertised.stream().map(a -> a.substring(0, a.lastIndexOf(':'))).toList());
            for (String address : advertised) {
                java.net.InetSocketAddress where = new java.net.InetSocketAddress(
                        address.substring(0, address.lastIndexOf(':')),
                        Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
                new Socket(where.getAddress(), where.getPort()).close();
                assertThrows(java.net.ConnectException.class, () -> new Socket("127.0.0.1", where.getPort()),
                        "not on loopback: " + address);
            }
        }
    }

    @Test
    void allGatherIsIndexedByRankAndRepeatable_thenBarrierAndCleanLeave() throws Exception {
        int size = 4;
        BlockingQueue<String> endings = new LinkedBlockingQueue<>();
        try (BootstrapServer server = BootstrapServer.start(size, SECRET, events::add);
             ExecutorService pool = Executors.newFixedThreadPool(size)) {
            List<Future<byte[][][]>> results = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                results.add(pool.submit(() -> {
                    try (SocketBootstrap bootstrap = client(server, rank, endings)) {
                        byte[][][] rounds = new byte[3][][];
                        for (int round = 0; round < 3; round++) {
                            rounds[round] = bootstrap.allGather(card(rank, round));
                        }
                        bootstrap.barrier();
                        return rounds;
                    }
                }));
            }
            for (Future<byte[][][]> result : results) {
                byte[][][] rounds = result.get(20, TimeUnit.SECONDS);
                for (int round = 0; round < 3; round++) {
                    assertEquals(size, rounds[round].length);
                    for (int rank = 0; rank < size; rank++) {
                        assertArrayEquals(card(rank, round), rounds[round][rank]);
                    }
                }
            }
            for (int rank = 0; rank < size; rank++) {
                assertTrue(server.awaitLeft(rank, Duration.ofSeconds(5)), "rank " + rank + " left cleanly");
            }
        }
        assertTrue(endings.isEmpty(), "no job end after a clean close: " + endings);
        assertFalse(events.stream().anyMatch(e -> e instanceof BootstrapEvent.Disconnected
                || e instanceof BootstrapEvent.Violation || e instanceof BootstrapEvent.Refused), events.toString());
    }

    private static byte[] card(int rank, int round) {
        // different lengths per rank, including an empty card
        return ("r" + rank + "/" + round + ";").repeat(rank).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void strangersWithGarbageOrAWrongSecretAreRefusedAndTheJobCompletes() throws Exception {
        int size = 2;
        BlockingQueue<String> endings = new LinkedBlockingQueue<>();
        try (BootstrapServer server = BootstrapServer.start(size, SECRET, events::add);
             ExecutorService pool = Executors.newFixedThreadPool(size)) {
            Future<byte[][]> rank0 = pool.submit(gatherAndLeave(server, 0, endings));

            // a stranger sends garbage with a huge length prefix
            try (Socket stranger = new Socket("127.0.0.1", server.port())) {
                OutputStream out = stranger.getOutputStream();
                out.write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3});
                out.flush();
                assertEquals(-1, drain(stranger), "the service drops the stranger");
            }
            // another proves a wrong secret, claiming the free rank 1
            IOException refused = assertThrows(IOException.class,
                    () -> SocketBootstrap.connect(config(server, 1, "not-the-secret"), endings::add));
            assertTrue(refused.getMessage().contains("refused rank 1"), refused.getMessage());
            // one claims a rank outside the world with the right secret
            assertThrows(IOException.class,
                    () -> SocketBootstrap.connect(new WorldConfig(1, 3, "j", server.address(), SECRET, Map.of()),
                            endings::add));

            Future<byte[][]> rank1 = pool.submit(gatherAndLeave(server, 1, endings));
            assertEquals("1", new String(rank0.get(10, TimeUnit.SECONDS)[1], StandardCharsets.UTF_8));
            assertEquals("0", new String(rank1.get(10, TimeUnit.SECONDS)[0], StandardCharsets.UTF_8));
        }
        List<BootstrapEvent.Refused> refusals = events.stream()
                .filter(BootstrapEvent.Refused.class::isInstance).map(BootstrapEvent.Refused.class::cast).toList();
        assertEquals(3, refusals.size(), "each stranger reported exactly once: " + refusals);
        assertTrue(refusals.get(0).reason().contains("malformed"), refusals.toString());
        assertTrue(refusals.stream().anyMatch(r -> r.reason().equals("wrong job secret")), refusals.toString());
        assertTrue(endings.isEmpty(), endings.toString());
    }

    private static Callable<byte[][]> gatherAndLeave(BootstrapServer server, int rank,
                                                     BlockingQueue<String> endings) {
        return () -> {
            try (SocketBootstrap bootstrap = client(server, rank, endings)) {
                byte[][] cards = bootstrap.allGather(String.valueOf(rank).getBytes(StandardCharsets.UTF_8));
                bootstrap.barrier();
                return cards;
            }
        };
    }

    /** Reads until the peer closes; returns -1 then. */
    private static int drain(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        DataInputStream in = new DataInputStream(socket.getInputStream());
        while (in.read() != -1) {
            // the challenge, then nothing
        }
        return -1;
    }

    @Test
    void abortIsReportedAndEndJobReachesEveryRank() throws Exception {
        BlockingQueue<String> endings = new LinkedBlockingQueue<>();
        try (BootstrapServer server = BootstrapServer.start(2, SECRET, events::add);
             SocketBootstrap rank0 = client(server, 0, endings);
             SocketBootstrap rank1 = client(server, 1, endings);
             ExecutorService pool = Executors.newSingleThreadExecutor()) {
            Future<?> waiting = pool.submit(() -> rank1.allGather(new byte[] {1}));
            // the "launcher": answer the abort by ending the job
            Thread launcher = Thread.ofVirtual().start(() -> {
                try {
                    BootstrapEvent event;
                    do {
                        event = events.take();
                    } while (!(event instanceof BootstrapEvent.Aborted));
                    BootstrapEvent.Aborted aborted = (BootstrapEvent.Aborted) event;
                    assertEquals(0, aborted.rank());
                    assertEquals(7, aborted.code());
                    assertEquals("bad input", aborted.message());
                    server.endJob(7, "rank 0 called MPI_Abort");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            rank0.abort(7, "bad input"); // returns once the job-end callback ran (it would halt a real rank)
            launcher.join(10_000);
            Exception failure = assertThrows(Exception.class, () -> waiting.get(10, TimeUnit.SECONDS));
            assertInstanceOf(IOException.class, failure.getCause());
            List<String> told = pollAll(endings, 2);
            assertEquals(2, told.size(), told.toString());
            assertTrue(told.stream().allMatch(s -> s.contains("rank 0 called MPI_Abort")), told.toString());
        }
    }

    @Test
    void ranksSeeTheLauncherVanish() throws Exception {
        BlockingQueue<String> endings = new LinkedBlockingQueue<>();
        BootstrapServer server = BootstrapServer.start(2, SECRET, events::add);
        try (SocketBootstrap rank0 = client(server, 0, endings)) {
            server.close();
            String ending = endings.poll(10, TimeUnit.SECONDS);
            assertTrue(ending != null && ending.contains("lost the connection"), String.valueOf(ending));
            assertThrows(IOException.class, rank0::barrier);
        }
    }

    @Test
    void aRankThatDisconnectsWithoutByeIsReported() throws Exception {
        try (BootstrapServer server = BootstrapServer.start(2, SECRET, events::add)) {
            // a raw client: handshake by hand, then drop the connection
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                byte[] nonce = BootstrapProtocol.nonceOf(BootstrapProtocol.read(in, 100).body());
                BootstrapProtocol.write(out, BootstrapProtocol.HELLO,
                        BootstrapProtocol.hello(1, 2, BootstrapProtocol.proof(SECRET, nonce)));
                assertEquals(BootstrapProtocol.WELCOME, BootstrapProtocol.read(in, 100).type());
            }
            BootstrapEvent event;
            do {
                event = events.poll(10, TimeUnit.SECONDS);
            } while (event != null && !(event instanceof BootstrapEvent.Disconnected));
            assertEquals(1, assertInstanceOf(BootstrapEvent.Disconnected.class, event).rank());
            assertTrue(server.isRegistered(1));
            assertFalse(server.awaitLeft(1, Duration.ofSeconds(1)));
        }
    }

    private static List<String> pollAll(BlockingQueue<String> queue, int count) throws InterruptedException {
        List<String> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String s = queue.poll(10, TimeUnit.SECONDS);
            if (s == null) {
                break;
            }
            list.add(s);
        }
        return list;
    }
}
