package org.weft.mm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.weft.mm.spi.SendStatus;
import org.weft.mm.spi.StubMethod;

/**
 * An RSR the method pushes back waits in its startpoint's queue, and every progress pass offers it again. A rank
 * waiting on a full ring makes such a pass per poll: a pass must allocate nothing (a linked queue's node and a
 * duplicate of the header per pass made a two-phase write at 2 ranks allocate its data's size again on the heap),
 * and the header it finally sends is the whole one, however many offers a method half-read.
 */
class BackPressureTest {
    private static final int PASSES = 100_000;

    @Test
    void passesOverAPushedBackRsrAllocateNothingAndItLeavesWhole() {
        FullMethod method = new FullMethod();
        Context context = new Context(0, 2);
        context.start(List.of(method));
        context.createEndpoint();
        DescriptorTable table = context.localTable();
        context.meet(new DescriptorTable[] {table, table}, 0);
        byte[] header = {1, 2, 3, 4, 5, 6, 7, 8};
        List<String> outcome = new ArrayList<>();
        context.startpoint(1).send(0, ByteBuffer.wrap(header), MemorySegment.NULL, new SendCompletion() {
            @Override
            public void sent() {
                outcome.add("sent");
            }

            @Override
            public void failed(String why) {
                outcome.add(why);
            }
        });

        for (int i = 0; i < 1_000; i++) { // warm the pass up
            context.flushBacklog();
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < PASSES; i++) {
            context.flushBacklog();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // Before: about 72 bytes a pass (7 MB here); what is left is the measurement's own noise.
        assertTrue(allocated < PASSES, PASSES + " passes over a pushed-back RSR allocated " + allocated + " bytes");

        method.full = false;
        assertEquals(1, context.flushBacklog());
        assertEquals(List.of("sent"), outcome);
        assertArrayEquals(header, method.taken);
    }

    /** A method to rank 1 whose buffers are full until told otherwise; each offer reads part of the header. */
    private static final class FullMethod extends StubMethod {
        volatile boolean full = true;
        byte[] taken;

        FullMethod() {
            super("full");
        }

        @Override
        public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
            if (full) {
                header.get(); // a method may look before it finds no room
                return SendStatus.BACK_PRESSURED;
            }
            taken = new byte[header.remaining()];
            header.get(taken);
            return SendStatus.SENT;
        }
    }
}
