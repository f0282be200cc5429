package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.WorldConfig;
import org.weft.core.RuntimeBinding;

/** Point-to-point, requests, errors and buffered sends in a world of one, on the real multimethod device. */
@Timeout(30)
class SingletonWorldTest {
    interface Body {
        void run(Intracomm world) throws Exception;
    }

    /** Runs {@code body} between Init and Finalize of a fresh singleton runtime, errors returned. */
    private static void inWorld(Body body) throws Exception {
        RuntimeBinding.runWithConfig(WorldConfig.singleton(), () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            body.run(MPI.COMM_WORLD);
            MPI.Finalize();
            return null;
        });
    }

    private static void assertErrorClass(int errorClass, Executable call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }

    interface Executable {
        void run() throws Exception;
    }

    @Test
    void initQueryAndFinalize() throws Exception {
        RuntimeBinding.runWithConfig(WorldConfig.singleton(), () -> {
            assertFalse(MPI.isInitialized());
            assertEquals(MPI.THREAD_MULTIPLE, MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE));
            assertTrue(MPI.isInitialized());
            assertEquals(MPI.THREAD_MULTIPLE, MPI.queryThread());
            assertTrue(MPI.isThreadMain());
            assertEquals(0, MPI.COMM_WORLD.getRank());
            assertEquals(1, MPI.COMM_WORLD.getSize());
            assertEquals("MPI_COMM_WORLD", MPI.COMM_WORLD.getName());
            assertEquals("MPI_COMM_SELF", MPI.COMM_SELF.getName());
            assertEquals(MPI.ERRORS_ARE_FATAL, MPI.COMM_WORLD.getErrhandler());
            assertEquals(MPI.CONGRUENT, Comm.compare(MPI.COMM_WORLD, MPI.COMM_SELF));
            assertEquals(1, MPI.COMM_WORLD.getGroup().getSize());
            assertEquals(Integer.MAX_VALUE, MPI.COMM_WORLD.getAttr(MPI.TAG_UB));
            assertEquals(3, MPI.getVersion().getVersion());
            assertTrue(MPI.getLibVersion().startsWith("Weft 0.1.0"));
            assertNotNull(MPI.getProcessorName());
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
            assertTrue(MPI.isFinalized());
            assertErrorClass(MPI.ERR_OTHER, MPI.COMM_WORLD::getRank);
            return null;
        });
    }

    @Test
    void iSendThenRecvToSelf() throws Exception {
        inWorld(world -> {
            IntBuffer out = MPI.newIntBuffer(4);
            out.put(0, 1).put(1, 2).put(2, 3);
            out.position(2); // ignored
            Request send = world.iSend(out, 3, MPI.INT, 0, 7);
            int[] in = {0, 0, 0, 99};
            Status status = world.recv(in, 4, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            send.waitFor();
            assertTrue(send.isNull());
            assertArrayEquals(new int[] {1, 2, 3, 99}, in, "bytes past the message untouched");
            assertEquals(0, status.getSource());
            assertEquals(7, status.getTag());
            assertEquals(3, status.getCount(MPI.INT));
            assertEquals(12, status.getCount(MPI.BYTE));
        });
    }

    @Test
    void everyPrimitiveTypeRoundTrips() throws Exception {
        inWorld(world -> {
            Request r = world.iSend(MPI.slice(new char[] {'x', 'a', 'b'}, 1), 2, MPI.CHAR, 0, 1);
            char[] chars = new char[2];
            world.recv(chars, 2, MPI.CHAR, 0, 1);
            r.waitFor();
            assertArrayEquals(new char[] {'a', 'b'}, chars);
            Request b = world.iRecv(MPI.newByteBuffer(3), 3, MPI.BOOLEAN, 0, 2);
            world.send(new boolean[] {true, false, true}, 3, MPI.BOOLEAN, 0, 2);
            assertEquals(3, b.waitStatus().getCount(MPI.BOOLEAN));
            double[] doubles = new double[2];
            Request d = world.iRecv(MPI.newDoubleBuffer(2), 2, MPI.DOUBLE, 0, 3);
            world.send(new double[] {1.5, -2.5}, 2, MPI.DOUBLE, 0, 3);
            d.waitFor();
            Request d2 = world.iSend(MPI.slice(new double[] {1.5, -2.5}, 0), 2, MPI.DOUBLE, 0, 4);
            world.recv(doubles, 2, MPI.DOUBLE, 0, 4);
            d2.waitFor();
            assertArrayEquals(new double[] {1.5, -2.5}, doubles);
            long[] longs = new long[1];
            Status s = world.sendRecv(new long[] {Long.MIN_VALUE}, 1, MPI.LONG, 0, 5, longs, 1, MPI.LONG, 0, 5);
            assertEquals(Long.MIN_VALUE, longs[0]);
            assertEquals(1, s.getCount(MPI.LONG));
            boolean[] flags = {false, false};
            world.sendRecv(new boolean[] {true, true}, 2, MPI.BOOLEAN, 0, 6, flags, 2, MPI.BOOLEAN, 0, 6);
            assertArrayEquals(new boolean[] {true, true}, flags);
        });
    }

    @Test
    void probeAndIProbe() throws Exception {
        inWorld(world -> {
            assertNull(world.iProbe(0, 3));
            Request send = world.iSend(MPI.newByteBuffer(5), 5, MPI.BYTE, 0, 3);
            Status probed = world.probe(0, 3);
            assertEquals(5, probed.getCount(MPI.BYTE));
            assertNotNull(world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
            world.recv(new byte[5], 5, MPI.BYTE, 0, 3);
            send.waitFor();
            assertNull(world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG));
        });
    }

    @Test
    void matchedProbeAndReceive() throws Exception {
        inWorld(world -> {
            Message message = new Message();
            assertTrue(message.isNull());
            assertNull(message.imProbe(0, 4, world));
            Request send = world.iSend(MPI.newIntBuffer(2).put(0, 11).put(1, 12), 2, MPI.INT, 0, 4);
            Status status = message.mProbe(0, 4, world);
            assertFalse(message.isNull());
            assertEquals(2, status.getCount(MPI.INT));
            int[] in = new int[2];
            message.mRecv(in, 2, MPI.INT);
            assertTrue(message.isNull());
            assertArrayEquals(new int[] {11, 12}, in);
            send.waitFor();
            Message none = new Message();
            assertEquals(MPI.PROC_NULL, none.mProbe(MPI.PROC_NULL, 0, world).getSource());
            assertTrue(none.isNoProc());
        });
    }

    @Test
    void truncationIsAnErrorAndWaitAllReportsItInStatus() throws Exception {
        inWorld(world -> {
            world.iSend(MPI.newIntBuffer(4), 4, MPI.INT, 0, 1);
            assertErrorClass(MPI.ERR_TRUNCATE, () -> world.recv(new int[2], 2, MPI.INT, 0, 1));
            Request send = world.iSend(MPI.newIntBuffer(4), 4, MPI.INT, 0, 2);
            Request recv = world.iRecv(MPI.newIntBuffer(2), 2, MPI.INT, 0, 2);
            assertErrorClass(MPI.ERR_IN_STATUS, () -> Request.waitAll(new Request[] {send, recv}));
            assertTrue(recv.isNull());
            world.iSend(MPI.newIntBuffer(4), 4, MPI.INT, 0, 3);
            Request one = world.iRecv(MPI.newIntBuffer(2), 2, MPI.INT, 0, 3);
            assertErrorClass(MPI.ERR_TRUNCATE, one::waitFor);
        });
    }

    @Test
    void cancelAnUnmatchedReceive() throws Exception {
        inWorld(world -> {
            Request recv = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 77);
            assertNull(recv.testStatus());
            recv.cancel();
            Status status = recv.waitStatus();
            assertTrue(status.isCancelled());
            assertTrue(recv.isNull());
        });
    }

    @Test
    void procNullCompletesAtOnce() throws Exception {
        inWorld(world -> {
            world.send(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            int[] in = {5};
            Status status = world.recv(in, 1, MPI.INT, MPI.PROC_NULL, 0);
            assertEquals(MPI.PROC_NULL, status.getSource());
            assertEquals(MPI.ANY_TAG, status.getTag());
            assertEquals(0, status.getCount(MPI.INT));
            assertEquals(5, in[0]);
        });
    }

    @Test
    void badArgumentsRaiseTheirErrorClass() throws Exception {
        inWorld(world -> {
            int[] buf = new int[4];
            assertErrorClass(MPI.ERR_RANK, () -> world.send(buf, 1, MPI.INT, 1, 0));
            assertErrorClass(MPI.ERR_RANK, () -> world.recv(buf, 1, MPI.INT, -5, 0));
            assertErrorClass(MPI.ERR_TAG, () -> world.send(buf, 1, MPI.INT, 0, -1));
            assertErrorClass(MPI.ERR_TAG, () -> world.recv(buf, 1, MPI.INT, 0, -7));
            assertErrorClass(MPI.ERR_COUNT, () -> world.send(buf, -1, MPI.INT, 0, 0));
            assertErrorClass(MPI.ERR_TYPE, () -> world.send(buf, 1, null, 0, 0));
            assertErrorClass(MPI.ERR_TYPE, () -> world.send(buf, 1, MPI.DATATYPE_NULL, 0, 0));
            assertErrorClass(MPI.ERR_BUFFER, () -> world.send(null, 1, MPI.INT, 0, 0));
            assertErrorClass(MPI.ERR_BUFFER, () -> world.send(buf, 5, MPI.INT, 0, 0));
            assertErrorClass(MPI.ERR_BUFFER, () -> world.iRecv(MPI.newIntBuffer(2), 3, MPI.INT, 0, 0));
            Datatype dup = MPI.INT.dup();
            dup.free();
            assertErrorClass(MPI.ERR_TYPE, () -> world.send(buf, 1, dup, 0, 0));
            assertErrorClass(MPI.ERR_TYPE, MPI.INT::free);
            assertErrorClass(MPI.ERR_COMM, world::free);
            assertEquals(1, world.getSize(), "COMM_WORLD still usable after a failed free");
            Prequest p = world.recvInit(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0);
            p.free();
            assertErrorClass(MPI.ERR_REQUEST, p::start);
            Datatype uncommitted = Datatype.createContiguous(2, MPI.INT);
            assertErrorClass(MPI.ERR_TYPE, () -> world.send(buf, 1, uncommitted, 0, 0));
            assertErrorClass(MPI.ERR_KEYVAL, () -> world.getAttr(12345));
        });
    }

    @Test
    void callErrhandlerReturnsWhenTheHandlerReturns() throws Exception {
        inWorld(world -> {
            world.callErrhandler(MPI.ERR_OP); // MPI_Comm_call_errhandler returns MPI_SUCCESS once the handler returns
            Intracomm dup = world.dup();
            assertEquals(MPI.ERRORS_RETURN, dup.getErrhandler());
            dup.callErrhandler(MPI.ERR_ARG);
            assertEquals(1, dup.getSize(), "the communicator is still usable");
        });
    }

    @Test
    void errorsOnNullAndFreedObjectsGoToTheWorldsHandler() throws Exception {
        inWorld(world -> {
            Intracomm fatal = world.dup();
            fatal.setErrhandler(MPI.ERRORS_ARE_FATAL); // a freed object's own handler no longer applies
            Prequest p = fatal.sendInit(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0);
            p.free();
            fatal.free();
            assertErrorClass(MPI.ERR_COMM, () -> fatal.send(new int[1], 1, MPI.INT, 0, 0));
            assertErrorClass(MPI.ERR_REQUEST, p::start);
            Intracomm none = world.split(MPI.UNDEFINED, 0);
            assertTrue(none.isNull());
            assertErrorClass(MPI.ERR_COMM, none::getRank);
            Datatype freedType = MPI.INT.dup();
            freedType.free();
            assertErrorClass(MPI.ERR_TYPE, freedType::getExtent);
            assertEquals(1, world.getSize(), "COMM_WORLD is still usable");
        });
    }

    @Test
    void waitAnyAndSomeOverNullRequests() throws Exception {
        inWorld(world -> {
            Request[] none = {MPI.REQUEST_NULL, MPI.REQUEST_NULL};
            assertEquals(MPI.UNDEFINED, Request.waitAny(none));
            assertEquals(MPI.UNDEFINED, Request.testAny(none));
            assertTrue(Request.testAll(none));
            Request pending = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 9);
            Request[] some = {MPI.REQUEST_NULL, pending};
            assertEquals(MPI.UNDEFINED, Request.testAny(some));
            world.send(new int[] {3}, 1, MPI.INT, 0, 9);
            Status status = Request.waitAnyStatus(some);
            assertEquals(1, status.getIndex());
            assertTrue(pending.isNull());
        });
    }

    @Test
    void persistentRequestsRestart() throws Exception {
        inWorld(world -> {
            IntBuffer out = MPI.newIntBuffer(1);
            IntBuffer in = MPI.newIntBuffer(1);
            Prequest send = world.sendInit(out, 1, MPI.INT, 0, 8);
            Prequest recv = world.recvInit(in, 1, MPI.INT, 0, 8);
            for (int i = 0; i < 3; i++) {
                out.put(0, i);
                Prequest.startAll(new Prequest[] {recv, send});
                Request.waitAll(new Request[] {send, recv});
                assertEquals(i, in.get(0));
                assertFalse(send.isNull(), "persistent requests stay valid");
            }
            send.free();
            recv.free();
            assertTrue(send.isNull());
        });
    }

    @Test
    void bufferedSendAccountsForOverheadAndFailsWhenShort() throws Exception {
        inWorld(world -> {
            assertErrorClass(MPI.ERR_BUFFER, () -> world.bSend(new int[1], 1, MPI.INT, 0, 0));
            MPI.attachBuffer(new byte[2 * (16 + MPI.BSEND_OVERHEAD)]);
            world.bSend(new int[] {1, 2, 3, 4}, 4, MPI.INT, 0, 1);
            world.bSend(new int[] {5, 6, 7, 8}, 4, MPI.INT, 0, 1);
            // a message needs its size plus BSEND_OVERHEAD: the whole buffer less the overhead is the limit
            // (eager sends to self complete at once, so earlier messages no longer hold space)
            int limit = 2 * (16 + MPI.BSEND_OVERHEAD) - MPI.BSEND_OVERHEAD;
            assertErrorClass(MPI.ERR_BUFFER, () -> world.bSend(new byte[limit + 1], limit + 1, MPI.BYTE, 0, 1));
            int[] in = new int[4];
            world.recv(in, 4, MPI.INT, 0, 1);
            assertArrayEquals(new int[] {1, 2, 3, 4}, in);
            world.recv(in, 4, MPI.INT, 0, 1);
            assertArrayEquals(new int[] {5, 6, 7, 8}, in);
            world.bSend(new byte[limit], limit, MPI.BYTE, 0, 3);
            world.recv(new byte[limit], limit, MPI.BYTE, 0, 3);
            Request r = world.ibSend(MPI.newByteBuffer(4), 4, MPI.BYTE, 0, 2);
            assertTrue(r.test());
            world.recv(new byte[4], 4, MPI.BYTE, 0, 2);
            byte[] detached = MPI.detachBuffer();
            assertEquals(2 * (16 + MPI.BSEND_OVERHEAD), detached.length);
        });
    }

    @Test
    void synchronousAndReadySendsToSelf() throws Exception {
        inWorld(world -> {
            Request ssend = world.isSend(ByteBuffer.allocateDirect(3), 3, MPI.BYTE, 0, 5);
            assertFalse(ssend.test(), "a synchronous send waits for its match");
            world.recv(new byte[3], 3, MPI.BYTE, 0, 5);
            ssend.waitFor();
            Request recv = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 6);
            world.rSend(new int[] {1}, 1, MPI.INT, 0, 6);
            recv.waitFor();
            int[] value = {42};
            Request echo = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 7);
            world.send(new int[] {7}, 1, MPI.INT, 0, 7);
            echo.waitFor();
            world.iSend(MPI.newIntBuffer(1).put(0, 9), 1, MPI.INT, 0, 8);
            world.sendRecvReplace(value, 1, MPI.INT, 0, 9, 0, 8);
            assertEquals(9, value[0]);
            world.recv(new int[1], 1, MPI.INT, 0, 9);
        });
    }
}
