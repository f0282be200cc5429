package org.weft.mm.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.param.Parameters;
import org.weft.mm.Context;
import org.weft.mm.DescriptorTable;
import org.weft.mm.SendCompletion;
import org.weft.mm.Startpoint;
import org.weft.mm.module.ModuleTestJob;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.module.tcp.TcpAddress;
import org.weft.mm.module.tcp.TcpModule;
import org.weft.mm.module.tcp.TcpRoute;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.Descriptor;

/**
 * Direct first, the next method when direct cannot connect: rank 1's tcp address answers nobody (a documentation
 * address where packets go unanswered until the connect timeout, or are refused at once), so the RSRs sent to it
 * while tcp was dialling go, all of them and in order, by the next method in the order (here a second tcp
 * machinery under the name {@code second}, standing for the relay); with no next method the send fails saying what
 * each method answered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnreachableFallbackTest {
    private static final int HANDLER = 7;
    private static final int COUNT = 20;
    /** TEST-NET-1: nothing answers there. */
    private static final String SILENT = "192.0.2.1";
    private final List<CommModule> started = new ArrayList<>();

    @AfterEach
    void shutdown() {
        started.forEach(CommModule::shutdown);
    }

    @Test
    void rsrsSentWhileTcpDialledGoInOrderByTheNextMethodWhenTcpCannotConnect() throws Exception {
        List<Integer> arrivals = new CopyOnWriteArrayList<>();
        Context[] contexts = meet(arrivals, true);
        Startpoint toRank1 = contexts[0].startpoint(1);
        List<String> failures = new CopyOnWriteArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            toRank1.send(HANDLER, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, i),
                    MemorySegment.NULL, SendCompletion.ofFailure(failures::add));
        }
        progressUntil(contexts, () -> arrivals.size() >= COUNT || !failures.isEmpty());
        assertEquals(List.of(), failures);
        List<Integer> inOrder = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            inOrder.add(i);
        }
        assertEquals(inOrder, arrivals);
        assertEquals("second", toRank1.link().module().name());
    }

    @Test
    void withoutANextMethodTheSendFailsSayingWhatEachMethodAnswered() throws Exception {
        Context[] contexts = meet(new CopyOnWriteArrayList<>(), false);
        List<String> failures = new CopyOnWriteArrayList<>();
        try {
            contexts[0].startpoint(1).send(HANDLER, ByteBuffer.allocate(4), MemorySegment.NULL,
                    SendCompletion.ofFailure(failures::add));
            progressUntil(contexts, () -> !failures.isEmpty());
        } catch (IllegalStateException e) { // the dial failed at once: selecting the method fails
            failures.add(e.getMessage());
        }
        assertEquals(1, failures.size(), "one failure: " + failures);
        assertTrue(failures.getFirst().contains("no communication method reaches rank 1")
                && failures.getFirst().contains("tcp: cannot connect to rank 1 at " + SILENT + ":9"), failures.getFirst());
    }

    private static void progressUntil(Context[] contexts, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            for (Context context : contexts) {
                context.flushBacklog();
                context.modules().forEach(CommModule::poll);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Two contexts running tcp (and, with {@code second}, a second tcp machinery after it); rank 1's tcp descriptor
     * names an address where nobody answers.
     */
    private Context[] meet(List<Integer> arrivals, boolean second) throws Exception {
        Context[] contexts = new Context[2];
        DescriptorTable[] tables = new DescriptorTable[2];
        for (int rank = 0; rank < 2; rank++) {
            Context context = new Context(rank, 2);
            context.createEndpoint().register(HANDLER, (source, body) -> arrivals.add(body.getInt(body.position())));
            List<CommModule> modules = new ArrayList<>(List.of(start(new TcpModule(line -> { }), rank, context)));
            if (second) {
                modules.add(start(new TcpModule("second", line -> { }, (peer, remote) -> "second".equals(
                        remote.method()) ? TcpRoute.direct(TcpAddress.of(new Descriptor("tcp", remote.data())))
                        : null), rank, context));
            }
            context.start(modules);
            contexts[rank] = context;
            List<Descriptor> table = new ArrayList<>();
            for (CommModule module : modules) {
                byte[] data = rank == 1 && module.name().equals("tcp")
                        ? new TcpAddress(SILENT, 9).toDescriptor().data()
                        : module.localDescriptor().data();
                table.add(new Descriptor(module.name(), data));
            }
            tables[rank] = new DescriptorTable(table);
        }
        for (Context context : contexts) {
            context.meet(tables, 0);
        }
        return contexts;
    }

    private CommModule start(CommModule module, int rank, Context context) throws Exception {
        module.init(new TestModuleContext(rank, 2, ModuleTestJob.JOB_ID, ModuleTestJob.SECRET, "localhost",
                new Parameters(Map.of("tcp_connect_timeout", "500"), Map.of()), context.inbound(), context.counters(module.name())));
        started.add(module);
        return module;
    }
}
