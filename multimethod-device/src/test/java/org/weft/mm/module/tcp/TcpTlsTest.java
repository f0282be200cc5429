package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.ModuleTestJob;
import org.weft.mm.module.RecordingSink;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.module.ThreadDumps;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;

/**
 * TLS on tcp connections, seen from a man in the middle ({@link TappedProxy}) between two ranks: between sites the
 * bytes on the wire carry no trace of the payload and one altered byte ends the connection with an error naming the
 * peer; inside a site (or with {@code tcp_tls=none}) the payload is on the wire as it is.
 */
class TcpTlsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** A payload no encryption would leave visible: a short text repeated. */
    private static final byte[] PATTERN = "weft-payload-pattern:".getBytes(StandardCharsets.US_ASCII);

    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    /** The peers the modules told their device they lost: "PEER: WHY". */
    private final ConcurrentLinkedQueue<String> lost = new ConcurrentLinkedQueue<>();
    private final List<TcpModule> modules = new ArrayList<>();
    private final List<RecordingSink> sinks = new ArrayList<>();
    private TappedProxy proxy;

    @AfterEach
    void stop() {
        modules.forEach(TcpModule::shutdown);
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aConnectionBetweenSitesIsEncryptedBothWaysAndArrivesIntact() throws Exception {
        CommObject up = connectThroughProxy(new String[] {"a", "b"}, Map.of());
        byte[] payload = patterned(256 * 1024);
        send(up, payload);
        awaitDelivered(0, 1);
        assertArrayEquals(payload, sinks.get(0).received().getFirst().body());
        CommObject down = modules.get(0).connect(1, modules.get(1).localDescriptor()); // the accepted connection
        send(down, payload);
        awaitDelivered(1, 1);
        assertArrayEquals(payload, sinks.get(1).received().getFirst().body());
        assertPatternAbsent(proxy.captured());
        assertTrue(modules.get(0).reportLines().getFirst().startsWith("tcp_tls cross-site: 1 connections TLS 1.3"),
                modules.get(0).reportLines().toString());
    }

    @Test
    void aJobWithoutSitesIsPlaintextAndMakesNoCredentials() throws Exception {
        CommObject up = connectThroughProxy(new String[] {"", ""}, Map.of());
        byte[] payload = patterned(4096);
        send(up, payload);
        awaitDelivered(0, 1);
        assertArrayEquals(payload, sinks.get(0).received().getFirst().body());
        assertTrue(contains(proxy.captured(), PATTERN), "inside a site the payload travels as it is");
        for (TcpModule module : modules) {
            assertEquals("tcp_tls cross-site: 0 connections TLS 1.3 (AES-GCM), 1 plaintext; no credentials made",
                    module.reportLines().getFirst());
        }
    }

    @Test
    void theSameConnectionInsideOneSiteIsPlaintext() throws Exception {
        CommObject up = connectThroughProxy(new String[] {"a", "a"}, Map.of());
        send(up, patterned(4096));
        awaitDelivered(0, 1);
        assertTrue(contains(proxy.captured(), PATTERN), "inside a site the payload travels as it is");
        assertTrue(modules.get(0).reportLines().getFirst().startsWith("tcp_tls cross-site: 0 connections TLS 1.3"
                + " (AES-GCM), 1 plaintext"), modules.get(0).reportLines().toString());
    }

    @Test
    void policyAllEncryptsInsideASiteAndPolicyNoneLeavesSitesInPlaintext() throws Exception {
        CommObject encrypted = connectThroughProxy(new String[] {"a", "a"}, Map.of("tcp_tls", "all"));
        send(encrypted, patterned(4096));
        awaitDelivered(0, 1);
        assertPatternAbsent(proxy.captured());
        stop();
        modules.clear();
        sinks.clear();
        CommObject plain = connectThroughProxy(new String[] {"a", "b"}, Map.of("tcp_tls", "none"));
        send(plain, patterned(4096));
        awaitDelivered(0, 1);
        assertTrue(contains(proxy.captured(), PATTERN), "tcp_tls=none leaves even a cross-site link in plaintext");
    }

    @Test
    void aByteAlteredOnTheWayEndsTheConnectionWithAnErrorNamingThePeer() throws Exception {
        CommObject up = connectThroughProxy(new String[] {"a", "b"}, Map.of());
        send(up, patterned(100));
        awaitDelivered(0, 1); // the handshake is done and a record went through
        proxy.alterAhead(2000);
        send(up, patterned(64 * 1024));
        awaitLog("weft tcp (rank 0): closing connection from rank 1 (");
        String line = log.stream().filter(l -> l.contains("closing connection from rank 1")).findFirst().orElseThrow();
        assertTrue(line.contains("TLS") && line.contains("altered"), line);
        assertEquals(1, sinks.get(0).count(), "the altered message is not delivered");
    }

    /**
     * The connection is the pair's only one: both ranks tell their device the peer is lost (after
     * {@code tcp_lost_peer_wait}), so that what waits on it fails instead of waiting forever.
     */
    @Test
    void aByteAlteredOnTheWayTellsBothDevicesThatThePeerIsLost() throws Exception {
        CommObject up = connectThroughProxy(new String[] {"a", "b"}, Map.of("tcp_lost_peer_wait", "200"));
        send(up, patterned(100));
        awaitDelivered(0, 1);
        assertTrue(lost.isEmpty(), lost.toString());
        proxy.alterAhead(2000);
        send(up, patterned(64 * 1024));
        if (!pollUntil(() -> lost.size() >= 2, WAIT)) {
            fail("the modules told of " + lost + "; log:\n" + String.join("\n", log));
        }
        List<String> told = List.copyOf(lost);
        assertTrue(told.stream().anyMatch(l -> l.startsWith("1: ") && l.contains("rank 1") && l.contains("TLS")),
                told.toString());
        assertTrue(told.stream().anyMatch(l -> l.startsWith("0: ") && l.contains("rank 0")), told.toString());
        assertEquals(SendStatus.FAILED, up.send(1, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[1])));
    }

    /**
     * Both ranks dial, so each also holds the connection the other dialled; whichever leaves first, the other reads
     * a clean goodbye: on an encrypted connection the BYE goes inside TLS, never as plaintext bytes the peer's session
     * would take for an altered record. (The plaintext BYE of a connection accepted and never sent on printed "TLS
     * record failed its integrity check" at the end of 1 in 3 clean two-job runs with {@code tcp_tls=all}; here the
     * both-dial switch closes that connection before the shutdown, so this case guards the switch's goodbye.)
     */
    @ParameterizedTest(name = "rank {0} leaves first")
    @ValueSource(ints = {0, 1})
    void aShutdownSaysByeInsideTlsOnEveryConnection(int first) throws Exception {
        String[] sites = {"a", "b"};
        start(0, sites, Map.of());
        start(1, sites, Map.of());
        CommObject down = modules.get(0).connect(1, modules.get(1).localDescriptor());
        CommObject up = modules.get(1).connect(0, modules.get(0).localDescriptor());
        send(down, patterned(100));
        send(up, patterned(100));
        awaitDelivered(0, 1);
        awaitDelivered(1, 1);
        modules.get(first).shutdown();
        TcpModule staying = modules.get(1 - first);
        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (System.nanoTime() - deadline < 0) { // the staying rank reads what the leaving one said
            if (staying.poll() == 0) {
                LockSupport.parkNanos(100_000);
            }
        }
        assertTrue(log.stream().noneMatch(l -> l.contains("TLS") || l.contains("closing connection")),
                String.join("\n", log));
    }

    @Test
    void aPeerThatConnectsInPlaintextWhereThePolicyEncryptsIsRefused() throws Exception {
        String[] sites = {"a", "a"};
        start(0, sites, Map.of("tcp_tls", "all"));
        start(1, sites, Map.of("tcp_tls", "none"));
        CommObject link = modules.get(1).connect(0, modules.get(0).localDescriptor());
        link.send(1, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[] {1}));
        awaitLog("rank 1 connected in plaintext, but tcp_tls=all encrypts the connections between site 'a' and"
                + " site 'a'");
        assertEquals(0, sinks.get(0).count());
    }

    // --- helpers ---

    /** Ranks 0 and 1 of {@code sites}; rank 1's link to rank 0 goes through a new {@link #proxy}. */
    private CommObject connectThroughProxy(String[] sites, Map<String, String> parameters) throws Exception {
        start(0, sites, parameters);
        start(1, sites, parameters);
        proxy = new TappedProxy(TcpAddress.of(modules.get(0).localDescriptor()).port());
        return modules.get(1).connect(0, new TcpAddress("127.0.0.1", proxy.port()).toDescriptor());
    }

    private void start(int rank, String[] sites, Map<String, String> parameters) throws Exception {
        RecordingSink sink = new RecordingSink();
        Map<String, String> all = new HashMap<>(Map.of("tcp_max_frame", "8m"));
        all.putAll(parameters);
        TcpModule module = new TcpModule(log::add);
        module.init(new SitedContext(new TestModuleContext(rank, sites.length, ModuleTestJob.JOB_ID,
                ModuleTestJob.SECRET, "localhost", new Parameters(all, Map.of()), sink), sites, lost));
        modules.add(module);
        sinks.add(sink);
    }

    private void send(CommObject link, byte[] payload) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        SendStatus status;
        while ((status = link.send(1, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(payload)))
                == SendStatus.BACK_PRESSURED) {
            pollUntil(() -> false, Duration.ofMillis(1));
            if (System.nanoTime() > deadline) {
                fail("still back-pressured\n" + ThreadDumps.dump());
            }
        }
        assertEquals(SendStatus.SENT, status);
    }

    private void awaitDelivered(int rank, int count) {
        if (!pollUntil(() -> sinks.get(rank).count() >= count, WAIT)) {
            fail("rank " + rank + " got " + sinks.get(rank).count() + " of " + count + " RSRs; log:\n"
                    + String.join("\n", log) + "\n" + ThreadDumps.dump());
        }
    }

    private void awaitLog(String fragment) {
        if (!pollUntil(() -> log.stream().anyMatch(l -> l.contains(fragment)), WAIT)) {
            fail("no log line containing '" + fragment + "'; log:\n" + String.join("\n", log));
        }
    }

    /** Polls every module (the ranks' progress) until {@code done} or {@code timeout}; returns whether done. */
    private boolean pollUntil(BooleanSupplier done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            int work = 0;
            for (TcpModule m : modules) {
                work += m.poll();
            }
            if (work == 0) {
                LockSupport.parkNanos(100_000);
            }
        }
        return true;
    }

    private static byte[] patterned(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = PATTERN[i % PATTERN.length];
        }
        return bytes;
    }

    private static void assertPatternAbsent(byte[] wire) {
        assertTrue(wire.length > 4096, "the proxy saw " + wire.length + " bytes");
        assertTrue(!contains(wire, PATTERN), "the payload's pattern is on the wire");
        byte[] half = Arrays.copyOf(PATTERN, 8);
        assertTrue(!contains(wire, half), "8 bytes of the payload's pattern are on the wire");
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
