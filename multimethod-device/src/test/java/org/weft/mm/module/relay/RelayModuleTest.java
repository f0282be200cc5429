package org.weft.mm.module.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.ModuleTestJob;
import org.weft.mm.module.RecordingSink;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.module.tcp.TcpAddress;
import org.weft.mm.relay.RelayServer;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.SendStatus;

/**
 * The relay method on loopback with real relay servers (threads of this JVM): ranks of sites {@code a} and
 * {@code b}, each site with its relay (two hops) or only {@code b} with one (one hop), carry RSRs both ways in order
 * over paths no rank dialled directly; a stranger's connection to a relay is refused; a receiver that reads nothing
 * stops the sender (back-pressure) instead of the relay taking everything.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RelayModuleTest {
    private static final int HANDLER = 9;
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    private final List<RelayServer> relays = new ArrayList<>();
    private final List<Thread> relayThreads = new ArrayList<>();
    private final List<RelayModule> modules = new ArrayList<>();
    private final List<RecordingSink> sinks = new ArrayList<>();
    private final List<Descriptor> descriptors = new ArrayList<>();

    @AfterEach
    void stop() {
        modules.forEach(RelayModule::shutdown);
        relays.forEach(RelayServer::close);
    }

    @Test
    void ranksOfTwoSitesMeetThroughTheirTwoRelaysInOrderBothWays() throws Exception {
        String relaysParameter = relay("a", 64 * 1024) + ";" + relay("b", 64 * 1024);
        start(relaysParameter, "a", "b");
        exchange(0, 1, 200);
        assertTrue(modules.get(0).routeTo(1).startsWith("through relay a (127.0.0.1:"), modules.get(0).routeTo(1));
        assertTrue(modules.get(0).routeTo(1).contains(" and relay b (127.0.0.1:"), modules.get(0).routeTo(1));
        assertEquals(List.of(), List.copyOf(log));
    }

    /**
     * A relay_buffer smaller than what a rank sends with the request that opens its path (the handshake reads up to
     * 4 KiB: the request, the HELLO, the start of a message) is taken as the smallest that holds it. Before, the pipe
     * overflowed (BufferOverflowException) and ended the relay's thread: every path through the relay broke.
     */
    @Test
    void relaysGivenTinyBuffersStillCarryEveryMessage() throws Exception {
        start(relay("a", 1024) + ";" + relay("b", 1024), "a", "b");
        exchange(0, 1, 20);
        assertEquals(List.of(), List.copyOf(log));
    }

    @Test
    void aRankOfASiteWithoutRelayDialsThePeersRelay() throws Exception {
        start(relay("b", 64 * 1024), "a", "b");
        exchange(0, 1, 50);
        assertTrue(modules.get(0).routeTo(1).matches("through relay b \\(127.0.0.1:\\d+\\)"), modules.get(0)
                .routeTo(1));
        assertEquals(List.of(), List.copyOf(log));
    }

    @Test
    void aStrangerIsRefusedAndTheRelayGoesOn() throws Exception {
        String relaysParameter = relay("b", 64 * 1024);
        RelayAddress address = RelayAddress.parse(relaysParameter);
        try (Socket stranger = new Socket("127.0.0.1", address.address().port())) {
            stranger.getOutputStream().write(RelayRequest.signed(RelayRequest.Kind.REGISTER, 0, -1, 0,
                    ModuleTestJob.JOB_ID, "", "not the secret").encode());
            assertEquals(-1, stranger.getInputStream().read(), "the relay closes a stranger's connection");
        }
        try (Socket garbage = new Socket("127.0.0.1", address.address().port())) {
            garbage.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes());
            assertEquals(-1, garbage.getInputStream().read(), "the relay closes a connection that sends garbage");
        }
        awaitLog("weft relay b: refused a connection from /127.0.0.1:", "wrong job secret");
        awaitLog("weft relay b: refused a connection from /127.0.0.1:", "not a relay request");
        start(relaysParameter, "a", "b");
        exchange(0, 1, 10);
    }

    /**
     * A stranger that connects and says nothing is closed after the handshake timeout (10 s) even while the relay
     * is never idle: here another stranger keeps it busy with a byte every 50 ms of a request that would take minutes
     * to come whole (slowloris), and is closed too. Before, the relay ended late handshakes only after a select that
     * found nothing ready, so any traffic kept every silent connection (and its socket) open.
     */
    @Test
    void silentStrangersAreClosedWhileTheRelayIsBusy() throws Exception {
        RelayAddress address = RelayAddress.parse(relay("b", 64 * 1024));
        int port = address.address().port();
        try (Socket silent = new Socket("127.0.0.1", port); Socket trickling = new Socket("127.0.0.1", port)) {
            Thread trickle = Thread.ofPlatform().daemon().name("trickle").start(() -> {
                byte[] length = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(RelayRequest.MAX_LENGTH)
                        .array(); // then zeros: the longest request there is, never whole
                try {
                    for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                        trickling.getOutputStream().write(i < length.length ? length[i] : 0);
                        Thread.sleep(50);
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the relay, or the test is over
                }
            });
            try {
                silent.setSoTimeout(20_000);
                long start = System.nanoTime();
                assertEquals(-1, silent.getInputStream().read(), "the relay closes a silent connection");
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                assertTrue(seconds < 15, "a silent connection was closed after " + seconds + " s");
                trickling.setSoTimeout(5_000);
                assertEquals(-1, trickling.getInputStream().read(), "the relay closes a trickling connection");
                awaitLog("weft relay b: refused a connection from /127.0.0.1:", "no request within 10 s");
            } catch (java.net.SocketTimeoutException e) {
                fail("the busy relay kept a silent connection open 20 s: " + log);
            } finally {
                trickle.interrupt();
            }
        }
    }

    @Test
    void aReceiverThatReadsNothingStopsTheSenderInsteadOfFillingTheRelay() throws Exception {
        start(relay("a", 64 * 1024) + ";" + relay("b", 64 * 1024), "a", "b");
        CommObject link = modules.get(0).connect(1, descriptors.get(1));
        MemorySegment chunk = MemorySegment.ofArray(new byte[64 * 1024]);
        long sent = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        SendStatus status = SendStatus.SENT;
        int pushedBack = 0;
        // rank 1 never polls: everything stays between the two ranks
        while (pushedBack < 200 && System.nanoTime() < deadline) {
            status = link.send(0, HANDLER, ByteBuffer.allocate(0), chunk);
            assertTrue(status != SendStatus.FAILED, "the link failed");
            if (status == SendStatus.SENT) {
                sent += chunk.byteSize();
                pushedBack = 0;
            } else {
                pushedBack++;
                modules.get(0).poll();
                LockSupport.parkNanos(1_000_000);
            }
        }
        assertEquals(SendStatus.BACK_PRESSURED, status, "the sender was never held back");
        // the tcp send queue (4 MiB), socket buffers on four connections and two relays' pipes, nothing more
        assertTrue(sent < 64L << 20, "the sender got " + sent + " bytes out towards a receiver that reads nothing");
    }

    /**
     * What the tcp machinery under the relay holds back to send several RSRs at once goes when a thread is about to
     * wait ({@code flush}), as tcp's does: a held message whose sender then waits would never leave.
     */
    @Test
    void aFlushWritesWhatTheRelayedLinksHoldBack() throws Exception {
        start(relay("a", 64 * 1024) + ";" + relay("b", 64 * 1024), Map.of("tcp_aggregate", "all:fixed",
                "tcp_aggregate_window", "60000000", "tcp_tls", "none"), "a", "b");
        CommObject link = modules.get(0).connect(1, descriptors.get(1));
        send(link, 0, 300_000); // a large one goes at once, and the connection is up
        awaitDelivered(1, 1);
        send(link, 1, 8); // held: the window is a minute
        modules.get(0).flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sinks.get(1).count() < 2 && System.nanoTime() < deadline) {
            modules.get(1).poll(); // rank 0 is not polled: only its flush can have written it
            Thread.sleep(1);
        }
        assertEquals(2, sinks.get(1).count(), "the held RSR did not leave at the flush");
    }

    /**
     * The relay's forwarding allocates nothing per frame (a relay carries a job's small messages for its whole
     * run; garbage there is collections, pauses in every path through it): after a warm-up, a ping-pong of small
     * RSRs through one relay costs its thread less than a byte per frame forwarded.
     */
    @Test
    void theRelayForwardsSmallFramesWithoutAllocating() throws Exception {
        start(relay("b", 64 * 1024), Map.of("tcp_tls", "none"), "a", "b");
        CommObject there = modules.get(0).connect(1, descriptors.get(1));
        send(there, 0, 16);
        awaitDelivered(1, 1);
        CommObject back = modules.get(1).connect(0, descriptors.get(0));
        int warmUp = 2_000;
        int measured = 1_000;
        pingPong(there, back, 1, warmUp);
        long before = allocatedByRelay();
        pingPong(there, back, 1 + warmUp, measured);
        long allocated = allocatedByRelay() - before;
        assertTrue(allocated < 2L * measured, "the relay's thread allocated " + allocated + " bytes forwarding "
                + 2 * measured + " frames");
    }

    /**
     * Left to choose ({@code relay_spin}'s default), a relay spins after a forward only on a host with cores to
     * spare: on two cores the spin holds the core a busy rank needs (docs/performance.md). A value given is kept.
     */
    @Test
    void aRelayLeftToChooseSpinsOnlyOnAHostWithCoresToSpare() {
        int chosen = RelayParameters.SPIN.defaultValue();
        assertEquals(0, RelayParameters.spinMicros(chosen, 2), "on 2 cores");
        assertEquals(0, RelayParameters.spinMicros(chosen, 3), "on 3 cores");
        assertEquals(50, RelayParameters.spinMicros(chosen, 4), "on 4 cores");
        assertEquals(20, RelayParameters.spinMicros(20, 2), "relay_spin=20 on 2 cores");
        assertEquals(0, RelayParameters.spinMicros(0, 64), "relay_spin=0 on 64 cores");
    }

    /** {@code count} round trips of 8-byte RSRs, from sequence number {@code first}. */
    private void pingPong(CommObject there, CommObject back, int first, int count) throws InterruptedException {
        for (int i = first; i < first + count; i++) {
            send(there, i, 8);
            awaitDelivered(1, i + 1);
            send(back, i, 8);
            awaitDelivered(0, i);
        }
    }

    private long allocatedByRelay() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.getThreadAllocatedBytes(relayThreads.getFirst().threadId());
    }

    /** Starts a relay server for {@code site} on loopback; returns its {@code SITE@HOSTS:PORT}. */
    private String relay(String site, int buffer) throws IOException {
        RelayServer server = new RelayServer(site, ModuleTestJob.JOB_ID, ModuleTestJob.SECRET, buffer, 0, log::add);
        TcpAddress where = server.bind(List.of("127.0.0.1"));
        relays.add(server);
        relayThreads.add(Thread.ofPlatform().daemon().name("relay-" + site).start(() -> {
            try {
                server.run();
            } catch (IOException e) {
                log.add("relay " + site + " ended: " + e);
            } finally {
                server.release();
            }
        }));
        return new RelayAddress(site, where).toString();
    }

    /** One relay module per site given, rank by rank. */
    private void start(String relaysParameter, String... sites) throws Exception {
        start(relaysParameter, Map.of(), sites);
    }

    /** One relay module per site given, rank by rank, with {@code more} parameters. */
    private void start(String relaysParameter, Map<String, String> more, String... sites) throws Exception {
        for (int rank = 0; rank < sites.length; rank++) {
            Map<String, String> parameters = new java.util.HashMap<>(more);
            parameters.putAll(Map.of("relays", relaysParameter, "site", sites[rank]));
            RecordingSink sink = new RecordingSink();
            RelayModule module = new RelayModule(log::add);
            var context = new TestModuleContext(rank, sites.length, ModuleTestJob.JOB_ID, ModuleTestJob.SECRET,
                    "localhost", new Parameters(parameters, Map.of()), sink);
            assertEquals(null, module.unavailabilityCause(context));
            module.init(context);
            modules.add(module);
            sinks.add(sink);
            descriptors.add(module.localDescriptor());
        }
    }

    /**
     * {@code count} RSRs each way, small and large mixed, and checks they came in order. {@code other} answers on
     * the connection {@code one} made (a rank of a site without relay is reached only so).
     */
    private void exchange(int one, int other, int count) throws InterruptedException {
        CommObject there = modules.get(one).connect(other, descriptors.get(other));
        send(there, 0, 300_000);
        awaitDelivered(other, 1);
        CommObject back = modules.get(other).connect(one, descriptors.get(one));
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                send(there, i, i % 10 == 0 ? 300_000 : 16);
            }
            send(back, i, i % 7 == 0 ? 200_000 : 0);
        }
        awaitDelivered(other, count);
        awaitDelivered(one, count);
        for (int rank : new int[] {one, other}) {
            List<RecordingSink.Rsr> got = sinks.get(rank).received();
            for (int i = 0; i < count; i++) {
                assertEquals(i, got.get(i).firstInt(), "rank " + rank + "'s RSR " + i);
            }
        }
    }

    private void send(CommObject link, int sequence, int payload) throws InterruptedException {
        ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, sequence);
        MemorySegment body = MemorySegment.ofArray(new byte[payload]);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        SendStatus status;
        while ((status = link.send(0, HANDLER, header, body)) != SendStatus.SENT) {
            assertEquals(SendStatus.BACK_PRESSURED, status, "the link failed: " + log);
            if (System.nanoTime() > deadline) {
                fail("still back-pressured: " + log);
            }
            pollAll();
            Thread.sleep(0, 100_000);
        }
    }

    private void awaitDelivered(int rank, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int idlePolls = 0;
        while (sinks.get(rank).count() < count) {
            if (System.nanoTime() > deadline) {
                fail("rank " + rank + " got " + sinks.get(rank).count() + " of " + count + ": " + log);
            }
            if (pollAll() > 0) {
                idlePolls = 0;
            } else if (++idlePolls > 1_000) { // a few hundred microseconds: an answer on its way is that close
                Thread.sleep(1);
            }
        }
    }

    private int pollAll() {
        int work = 0;
        for (RelayModule module : modules) {
            work += module.poll();
        }
        return work;
    }

    private void awaitLog(String start, String reason) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.stream().noneMatch(line -> line.startsWith(start) && line.contains(reason))) {
            if (System.nanoTime() > deadline) {
                fail("no line '" + start + "... " + reason + "' in " + log);
            }
            Thread.sleep(10);
        }
    }

}
