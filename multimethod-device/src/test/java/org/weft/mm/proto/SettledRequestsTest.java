package org.weft.mm.proto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.SendMode;
import org.weft.mm.Context;
import org.weft.mm.DescriptorTable;
import org.weft.mm.progress.Waiters;
import org.weft.mm.spi.MalformedRsrException;
import org.weft.mm.spi.SendStatus;
import org.weft.mm.spi.StubMethod;

/**
 * A send that failed part-way is complete while RSRs of it still wait in the peer's back-pressure queue, and each
 * of them reports to the request when it is flushed. The request must not serve another send before those reports
 * are in: a stale "sent" would complete the new send before its data went (the program would then reuse a buffer
 * the method still reads), a stale failure would fail it.
 */
class SettledRequestsTest {
    private static final int FRAGMENT = 64;
    private static final int CTX = 0;

    private final ScriptedMethod method = new ScriptedMethod();
    private final Context context = new Context(0, 2);
    private final PointToPoint p2p;

    SettledRequestsTest() {
        context.start(List.of(method));
        context.createEndpoint();
        DescriptorTable table = context.localTable();
        context.meet(new DescriptorTable[] {table, table}, 0);
        p2p = new PointToPoint(context, new Waiters(), FRAGMENT);
    }

    @Test
    void aNonblockingSendThatFailedPartWayIsNotReusedWhileItsFragmentsWait() {
        DeviceRequest failed = rendezvousThatFailsAtItsFirstFragment(null);
        p2p.retire(failed);

        DeviceRequest next = p2p.startSend(null, MemorySegment.ofArray(new byte[8]), 1, 9, CTX, SendMode.STANDARD);
        assertNotSame(failed, next, "the failed send still has fragments to report");
        assertFalse(next.isComplete(), "queued behind the old fragments");

        method.script(SendStatus.SENT, SendStatus.SENT, SendStatus.SENT, SendStatus.BACK_PRESSURED);
        context.flushBacklog(); // the old fragments report; the new send stays queued
        assertFalse(next.isComplete(), "the old fragments' reports do not complete the new send");
        assertEquals(ErrorClass.ERR_OTHER, failed.error(), "nor turn the failure into success");

        method.script(SendStatus.SENT);
        context.flushBacklog();
        assertTrue(next.isComplete());
        assertEquals(ErrorClass.SUCCESS, next.error());

        p2p.retire(failed); // settled now
        method.script(SendStatus.SENT);
        assertSame(failed, p2p.startSend(null, MemorySegment.ofArray(new byte[8]), 1, 9, CTX, SendMode.STANDARD));
    }

    @Test
    void aThreadsBlockingSendRequestWaitsForTheReportsOfItsFailedSend() {
        DeviceRequest own = p2p.reusableSend();
        assertSame(own, rendezvousThatFailsAtItsFirstFragment(own));
        assertNull(p2p.reusableSend(), "complete, but fragments still to report to it");

        method.script(SendStatus.FAILED, SendStatus.FAILED, SendStatus.FAILED);
        context.flushBacklog();
        assertSame(own, p2p.reusableSend(), "every report in: the thread's again");
        assertEquals(ErrorClass.ERR_OTHER, own.error());
    }

    @Test
    void aSendWhoseRequestToSendFailedWaitsForNoAnswer() {
        method.script(SendStatus.FAILED);
        DeviceRequest send = p2p.startSend(null, MemorySegment.ofArray(new byte[4 * FRAGMENT]), 1, 7, CTX,
                SendMode.STANDARD);
        assertTrue(send.isComplete());
        assertEquals(ErrorClass.ERR_OTHER, send.error());
        p2p.retire(send);

        method.script(SendStatus.SENT);
        DeviceRequest next = p2p.startSend(null, MemorySegment.ofArray(new byte[4 * FRAGMENT]), 1, 8, CTX,
                SendMode.STANDARD);
        assertSame(send, next, "settled: reused");
        long nextId = MessageHeader.senderRequest(method.sent.getLast());
        // an answer to the failed RTS (its id was nextId - 1) finds no send: it must not drive the new one
        assertThrows(MalformedRsrException.class,
                () -> p2p.handle(1, header(MessageHeader.CTS, 4 * FRAGMENT, nextId - 1, 99)));
        assertFalse(next.isComplete());
    }

    /**
     * Starts a rendezvous send of four fragments to rank 1 (reusing {@code reusable} if given), answers its RTS
     * with a CTS, and has the method push back on the first fragment, then fail it and push back on the second:
     * the send is complete with an error while fragments 2–4 wait.
     */
    private DeviceRequest rendezvousThatFailsAtItsFirstFragment(DeviceRequest reusable) {
        method.script(SendStatus.SENT); // the RTS
        DeviceRequest send = p2p.startSend(reusable, MemorySegment.ofArray(new byte[4 * FRAGMENT]), 1, 7, CTX,
                SendMode.STANDARD);
        long senderRequest = MessageHeader.senderRequest(method.sent.getLast());
        method.script(SendStatus.BACK_PRESSURED); // fragment 1, and 2-4 queue behind it
        p2p.handle(1, header(MessageHeader.CTS, 4 * FRAGMENT, senderRequest, 99));
        assertFalse(send.isComplete());

        method.script(SendStatus.FAILED, SendStatus.BACK_PRESSURED);
        context.flushBacklog();
        assertTrue(send.isComplete());
        assertEquals(ErrorClass.ERR_OTHER, send.error());
        return send;
    }

    private static ByteBuffer header(byte kind, long length, long senderRequest, long receiverRequest) {
        ByteBuffer body = ByteBuffer.allocate(MessageHeader.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        return MessageHeader.write(body, kind, (byte) 0, 0, 0, length, senderRequest, receiverRequest);
    }

    /** A method to rank 1 that answers each send with the next scripted status and keeps the headers it took. */
    private static final class ScriptedMethod extends StubMethod {
        final ArrayDeque<SendStatus> answers = new ArrayDeque<>();
        final List<ByteBuffer> sent = new ArrayList<>();

        ScriptedMethod() {
            super("scripted");
        }

        void script(SendStatus... statuses) {
            answers.clear();
            answers.addAll(List.of(statuses));
        }

        @Override
        public SendStatus send(int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
            SendStatus status = answers.poll();
            if (status == null) {
                throw new AssertionError("an RSR nobody expected: " + header);
            }
            if (status == SendStatus.SENT) {
                ByteBuffer copy = ByteBuffer.allocate(header.remaining()).order(header.order());
                sent.add(copy.put(header.duplicate()).flip());
            }
            return status;
        }

        @Override
        public long eagerLimit() {
            return 16;
        }

        @Override
        public long maxRsrLength() {
            return MessageHeader.LENGTH + FRAGMENT;
        }
    }
}
