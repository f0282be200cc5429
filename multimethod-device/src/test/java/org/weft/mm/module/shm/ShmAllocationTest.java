package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.spi.SendStatus;

/**
 * The steady-state shm path (send, poll, deliver a view of the ring) allocates nothing per message: heap and
 * native payloads, on one thread, measured with the thread's allocation counter after the JIT warmed up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmAllocationTest {
    private static final int ROUND = 100_000;

    @TempDir
    Path jobDir;

    /** Counts deliveries and reads the body, as a handler would, without keeping it. */
    private static final class CountingSink implements RsrSink {
        long count;
        long sum;

        @Override
        public void deliver(int sourceRank, int endpointId, int handlerId, ByteBuffer body) {
            count++;
            sum += body.getInt(body.position());
        }
    }

    @Test
    void sendAndPollAllocateNothingPerMessage() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<String, String> params = Map.of("job_dir", jobDir.toString());
        CountingSink sink = new CountingSink();
        ShmModule sender = new ShmModule();
        ShmModule receiver = new ShmModule();
        sender.init(new TestModuleContext(0, 2, "j", "s", "h", new Parameters(params, Map.of()), new CountingSink()));
        receiver.init(new TestModuleContext(1, 2, "j", "s", "h", new Parameters(params, Map.of()), sink));
        try {
            CommObject link = sender.connect(1, receiver.localDescriptor());
            ByteBuffer header = ByteBuffer.allocate(16).putInt(0, 1);
            MemorySegment heap = MemorySegment.ofArray(new byte[64]);
            MemorySegment direct = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(64));
            double best = Double.MAX_VALUE;
            for (int round = 0; round < 8; round++) { // the first rounds warm the JIT up
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < ROUND; i++) {
                    if (link.send(1, 1, header, (i & 1) == 0 ? heap : direct) != SendStatus.SENT) {
                        throw new AssertionError("pushed back with a poll after every send");
                    }
                    receiver.poll();
                }
                long after = threads.getCurrentThreadAllocatedBytes();
                best = Math.min(best, (after - before) / (double) ROUND);
            }
            assertEquals(8L * ROUND, sink.count);
            assertTrue(best < 1.0, "send + poll allocate " + best + " bytes per message");
        } finally {
            sender.shutdown();
            receiver.shutdown();
        }
    }
}
