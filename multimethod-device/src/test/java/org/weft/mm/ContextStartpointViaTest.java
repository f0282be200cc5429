package org.weft.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.ModuleTestJob;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.module.shm.ShmModule;
import org.weft.mm.module.tcp.TcpModule;
import org.weft.mm.spi.CommModule;

/**
 * {@link Context#startpointVia}: two contexts in one JVM running real shm and tcp modules; the default startpoint
 * takes shm, a startpoint via tcp carries its RSRs over tcp to the same endpoint, and a method that does not run
 * or does not reach the peer is refused with the reason.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ContextStartpointViaTest {
    private static final int HANDLER = 7;

    @TempDir
    Path jobDir;

    private final List<CommModule> started = new ArrayList<>();

    @AfterEach
    void shutdown() {
        started.forEach(CommModule::shutdown);
    }

    @Test
    void aStartpointViaTcpCarriesRsrsOverTcpToTheSameEndpointWhileTheDefaultOneTakesShm() throws Exception {
        AtomicInteger arrivals = new AtomicInteger();
        Context[] contexts = meet(2, arrivals);

        Startpoint byDefault = contexts[0].startpoint(1);
        Startpoint viaTcp = contexts[0].startpointVia(1, "tcp");
        assertEquals("shm", byDefault.link().module().name());
        assertEquals("tcp", viaTcp.link().module().name());
        assertEquals(byDefault.table(), viaTcp.table());

        viaTcp.send(HANDLER, ByteBuffer.allocate(8).putLong(0, 42), MemorySegment.NULL, SendCompletion.LOG_FAILURE);
        awaitArrivals(contexts[1], arrivals, 1);
        assertEquals(1, delivered(contexts[1], "tcp"));
        assertEquals(0, delivered(contexts[1], "shm"));

        byDefault.send(HANDLER, ByteBuffer.allocate(8).putLong(0, 43), MemorySegment.NULL, SendCompletion.LOG_FAILURE);
        awaitArrivals(contexts[1], arrivals, 2);
        assertEquals(1, delivered(contexts[1], "shm"));
    }

    @Test
    void aMethodThatDoesNotRunOrDoesNotReachThePeerIsRefusedWithTheReason() throws Exception {
        Context[] contexts = meet(2, new AtomicInteger());

        IllegalArgumentException notRunning = assertThrows(IllegalArgumentException.class,
                () -> contexts[0].startpointVia(1, "self"));
        assertTrue(notRunning.getMessage().contains("self does not run here"), notRunning.getMessage());

        ShmModule lonely = start(new ShmModule(line -> { }), 0, 2, new Context(0, 2), "other");
        Context elsewhere = new Context(0, 2);
        elsewhere.createEndpoint();
        elsewhere.start(List.of(lonely));
        // rank 1's table offers tcp only: shm cannot reach it
        elsewhere.meet(new DescriptorTable[]{contexts[0].localTable(),
                new DescriptorTable(List.of(contexts[1].localTable().find("tcp")))}, 0);
        IllegalArgumentException unreachable = assertThrows(IllegalArgumentException.class,
                () -> elsewhere.startpointVia(1, "shm"));
        assertTrue(unreachable.getMessage().contains("shm does not reach rank 1"), unreachable.getMessage());
        assertTrue(unreachable.getMessage().contains("not offered by rank 1"), unreachable.getMessage());

        assertThrows(IllegalArgumentException.class, () -> contexts[0].startpointVia(2, "tcp"));
        assertThrows(IllegalStateException.class, () -> new Context(0, 2).startpointVia(1, "tcp"));
    }

    /** Contexts of {@code size} ranks running shm then tcp, met, each with a handler counting into {@code arrivals}. */
    private Context[] meet(int size, AtomicInteger arrivals) throws Exception {
        Context[] contexts = new Context[size];
        for (int rank = 0; rank < size; rank++) {
            Context context = new Context(rank, size);
            context.createEndpoint().register(HANDLER, (source, body) -> arrivals.incrementAndGet());
            context.start(List.of(start(new ShmModule(line -> { }), rank, size, context, ModuleTestJob.JOB_ID),
                    start(new TcpModule(line -> { }), rank, size, context, ModuleTestJob.JOB_ID)));
            contexts[rank] = context;
        }
        DescriptorTable[] tables = new DescriptorTable[size];
        for (int rank = 0; rank < size; rank++) {
            tables[rank] = contexts[rank].localTable();
        }
        for (Context context : contexts) {
            context.meet(tables, 0);
        }
        return contexts;
    }

    private <M extends CommModule> M start(M module, int rank, int size, Context context, String jobId)
            throws Exception {
        Path dir = Files.createDirectories(jobDir.resolve(jobId));
        Parameters parameters = new Parameters(Map.of("job_dir", dir.toString()), Map.of());
        module.init(new TestModuleContext(rank, size, jobId, ModuleTestJob.SECRET, "localhost", parameters,
                context.inbound(), context.counters(module.name())));
        started.add(module);
        return module;
    }

    private static void awaitArrivals(Context receiver, AtomicInteger arrivals, int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (arrivals.get() < expected) {
            receiver.modules().forEach(CommModule::poll);
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + arrivals.get() + " of " + expected + " RSRs arrived");
            }
            Thread.sleep(1);
        }
    }

    private static long delivered(Context context, String method) {
        return context.counters(method).snapshot().rsrsDelivered();
    }
}
