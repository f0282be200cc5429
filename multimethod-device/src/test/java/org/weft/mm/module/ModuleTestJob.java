package org.weft.mm.module;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.weft.adi.param.Parameters;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.SendStatus;

/**
 * A job of N module instances in one JVM, one per rank, each with its own context and {@link RecordingSink},
 * their descriptors exchanged as the bootstrap would. Waiting helpers poll every module (for modules that deliver
 * during {@code poll()}) and back off instead of spinning; a wait that runs out fails with a thread dump.
 */
public final class ModuleTestJob implements AutoCloseable {
    public static final String JOB_ID = "test-job";
    public static final String SECRET = "s3cret-of-the-test-job";

    private final List<CommModule> modules = new ArrayList<>();
    private final List<RecordingSink> sinks = new ArrayList<>();
    private final List<Descriptor> descriptors = new ArrayList<>();

    private ModuleTestJob() {
    }

    /** Starts {@code size} modules made by {@code factory}, all with the given explicit parameters. */
    public static ModuleTestJob start(int size, IntFunction<CommModule> factory, Map<String, String> parameters)
            throws Exception {
        ModuleTestJob job = new ModuleTestJob();
        try {
            for (int rank = 0; rank < size; rank++) {
                RecordingSink sink = new RecordingSink();
                CommModule module = factory.apply(rank);
                var context = new TestModuleContext(rank, size, JOB_ID, SECRET, "localhost",
                        new Parameters(parameters, Map.of()), sink);
                String whyNot = module.unavailabilityCause(context);
                if (whyNot != null) {
                    throw new IllegalStateException(module.name() + " unavailable: " + whyNot);
                }
                module.init(context);
                job.modules.add(module);
                job.sinks.add(sink);
                job.descriptors.add(module.localDescriptor());
            }
        } catch (Exception | Error e) {
            job.close();
            throw e;
        }
        return job;
    }

    public CommModule module(int rank) {
        return modules.get(rank);
    }

    public RecordingSink sink(int rank) {
        return sinks.get(rank);
    }

    public Descriptor descriptor(int rank) {
        return descriptors.get(rank);
    }

    /** The link from {@code from} to {@code to}, as the selection policy would get it. */
    public CommObject link(int from, int to) {
        CommObject link = modules.get(from).connect(to, descriptors.get(to));
        if (link == null) {
            fail(modules.get(from).name() + " says it does not apply from rank " + from + " to rank " + to);
        }
        return link;
    }

    public int pollAll() {
        int work = 0;
        for (CommModule m : modules) {
            work += m.poll();
        }
        return work;
    }

    /** Sends one RSR, retrying while the module pushes back; fails the test when the link is dead. */
    public void send(CommObject link, int endpoint, int handler, ByteBuffer header, MemorySegment payload) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            SendStatus status = link.send(endpoint, handler, header, payload);
            if (status == SendStatus.SENT) {
                return;
            }
            assertEquals(SendStatus.BACK_PRESSURED, status, "send failed");
            if (System.nanoTime() > deadline) {
                fail("still back-pressured after 20 s\n" + ThreadDumps.dump());
            }
            if (pollAll() == 0) {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    /** Waits until rank {@code rank}'s sink holds at least {@code count} RSRs. */
    public void awaitDelivered(int rank, int count, Duration timeout) throws InterruptedException {
        RecordingSink sink = sinks.get(rank);
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen;
        while ((seen = sink.count()) < count) {
            if (System.nanoTime() > deadline) {
                fail("rank " + rank + " got " + seen + " of " + count + " RSRs within " + timeout + "\n"
                        + ThreadDumps.dump());
            }
            if (pollAll() == 0) {
                sink.awaitMore(seen, 1);
            }
        }
    }

    /** Shuts every module down (each once). */
    @Override
    public void close() {
        for (CommModule m : modules) {
            m.shutdown();
        }
    }
}
