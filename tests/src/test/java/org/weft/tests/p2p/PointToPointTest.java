package org.weft.tests.p2p;

import mpi.Intracomm;
import mpi.MPI;
import mpi.Message;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Timeout;
import org.weft.api.Weft;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.harness.InProcessWorld;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The point-to-point chapter, size-agnostic (mpi4py's habit): every test runs at several world sizes (8 is
 * oversubscribed on 2 cores) and on two method sets — the default (self, shm between the ranks, which share this
 * host) and tcp only, over real loopback sockets — with N ranks as N runtimes in this JVM. Sizes 70 000 and
 * 200 000 bytes cross both methods' eager limits, and 1 MiB rings make shm push back and fragment.
 */
@Timeout(120)
class PointToPointTest {
    static Stream<InProcessWorld> worlds() {
        List<InProcessWorld> worlds = new ArrayList<>();
        for (int size : new int[] {2, 3, 5, 8}) {
            worlds.add(InProcessWorld.of(size));
            worlds.add(InProcessWorld.of(size).with("methods", "tcp"));
        }
        return worlds.stream();
    }

    private static Intracomm world() {
        return MPI.COMM_WORLD;
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void everyPrimitiveTypeGoesAroundTheRing(InProcessWorld w) throws Exception {
        w.run(rank -> {
            int size = world().getSize();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            int n = 20_000; // 80 000+ bytes for the wider types: rendezvous
            int[] ints = new int[n];
            long[] longs = new long[n];
            double[] doubles = new double[n];
            char[] chars = new char[n];
            short[] shorts = new short[n];
            float[] floats = new float[n];
            byte[] bytes = new byte[n];
            boolean[] booleans = new boolean[n];
            for (int i = 0; i < n; i++) {
                ints[i] = rank * n + i;
                longs[i] = (long) rank << 40 | i;
                doubles[i] = rank + i / 7.0;
                chars[i] = (char) (rank + i);
                shorts[i] = (short) (rank - i);
                floats[i] = rank * 0.5f + i;
                bytes[i] = (byte) (rank ^ i);
                booleans[i] = (rank + i) % 3 == 0;
            }
            Object[] sent = {ints, longs, doubles, chars, shorts, floats, bytes, booleans};
            mpi.Datatype[] types = {MPI.INT, MPI.LONG, MPI.DOUBLE, MPI.CHAR, MPI.SHORT, MPI.FLOAT, MPI.BYTE,
                    MPI.BOOLEAN};
            Object[] got = {new int[n], new long[n], new double[n], new char[n], new short[n], new float[n],
                    new byte[n], new boolean[n]};
            for (int t = 0; t < types.length; t++) {
                world().sendRecv(sent[t], n, types[t], next, t, got[t], n, types[t], prev, t);
            }
            for (int i = 0; i < n; i++) {
                assertEquals(prev * n + i, ((int[]) got[0])[i]);
                assertEquals((long) prev << 40 | i, ((long[]) got[1])[i]);
                assertEquals(prev + i / 7.0, ((double[]) got[2])[i]);
                assertEquals((char) (prev + i), ((char[]) got[3])[i]);
                assertEquals((short) (prev - i), ((short[]) got[4])[i]);
                assertEquals(prev * 0.5f + i, ((float[]) got[5])[i]);
                assertEquals((byte) (prev ^ i), ((byte[]) got[6])[i]);
                assertEquals((prev + i) % 3 == 0, ((boolean[]) got[7])[i]);
            }
            String expected = "tcp".equals(w.parameter("methods")) ? "tcp" : "shm";
            assertEquals(expected, Weft.report().methodByPeer().get(next), "method to the next rank");
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void wildcardReceivesKeepEverySendersOrder(InProcessWorld w) throws Exception {
        int[] sizes = {0, 4, 1000, 70_000, 8, 200_000};
        int perSender = 24;
        w.run(rank -> {
            int size = world().getSize();
            if (rank != 0) {
                List<Request> sends = new ArrayList<>();
                for (int i = 0; i < perSender; i++) {
                    ByteBuffer b = MPI.newByteBuffer(Math.max(1, sizes[i % sizes.length]));
                    for (int k = 0; k < b.capacity(); k++) {
                        b.put(k, (byte) (rank + i + k));
                    }
                    sends.add(world().iSend(b, sizes[i % sizes.length], MPI.BYTE, 0, i));
                }
                Request.waitAll(sends.toArray(Request[]::new));
            } else {
                int[] expected = new int[size];
                byte[] buffer = new byte[200_000];
                for (int m = 0; m < perSender * (size - 1); m++) {
                    Status s = world().recv(buffer, buffer.length, MPI.BYTE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    int source = s.getSource();
                    assertEquals(expected[source], s.getTag(), "order of messages from rank " + source);
                    int n = s.getCount(MPI.BYTE);
                    assertEquals(sizes[s.getTag() % sizes.length], n);
                    for (int k = 0; k < n; k += 997) {
                        assertEquals((byte) (source + s.getTag() + k), buffer[k]);
                    }
                    expected[source]++;
                }
            }
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void aSpecificTagReceivePostedFirstLetsWildcardsTakeTheEarlierMessages(InProcessWorld w) throws Exception {
        w.run(rank -> {
            int size = world().getSize();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            IntBuffer third = MPI.newIntBuffer(1);
            Request late = world().iRecv(third, 1, MPI.INT, prev, 3);
            for (int tag = 1; tag <= 3; tag++) {
                world().send(new int[] {tag * 10}, 1, MPI.INT, next, tag);
            }
            int[] got = new int[1];
            Status first = world().recv(got, 1, MPI.INT, prev, MPI.ANY_TAG);
            assertEquals(1, first.getTag());
            assertEquals(10, got[0]);
            Status second = world().recv(got, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertEquals(2, second.getTag());
            Status last = late.waitStatus();
            assertEquals(3, last.getTag());
            assertEquals(30, third.get(0));
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void nonblockingExchangeWithEveryRank(InProcessWorld w) throws Exception {
        w.run(rank -> {
            int size = world().getSize();
            int n = 18_000; // 72 000 bytes: rendezvous over tcp
            DoubleBuffer[] in = new DoubleBuffer[size];
            Request[] requests = new Request[2 * size];
            for (int peer = 0; peer < size; peer++) {
                in[peer] = MPI.newDoubleBuffer(n);
                requests[peer] = world().iRecv(in[peer], n, MPI.DOUBLE, peer, 5);
            }
            for (int peer = 0; peer < size; peer++) {
                DoubleBuffer out = MPI.newDoubleBuffer(n);
                for (int i = 0; i < n; i++) {
                    out.put(i, rank * 1000.0 + peer + i * 1e-3);
                }
                requests[size + peer] = world().iSend(out, n, MPI.DOUBLE, peer, 5);
            }
            int completed = 0;
            while (completed < requests.length) {
                int[] done = Request.waitSome(requests);
                assertNotNull(done);
                completed += done.length;
            }
            assertEquals(MPI.UNDEFINED, Request.waitAny(requests), "all requests are null after completion");
            for (int peer = 0; peer < size; peer++) {
                assertEquals(peer * 1000.0 + rank, in[peer].get(0));
                assertEquals(peer * 1000.0 + rank + (n - 1) * 1e-3, in[peer].get(n - 1));
            }
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void persistentRequestsAroundTheRing(InProcessWorld w) throws Exception {
        w.run(rank -> {
            int size = world().getSize();
            IntBuffer out = MPI.newIntBuffer(20_000);
            IntBuffer in = MPI.newIntBuffer(20_000);
            Prequest send = world().sendInit(out, 20_000, MPI.INT, (rank + 1) % size, 8);
            Prequest recv = world().recvInit(in, 20_000, MPI.INT, (rank + size - 1) % size, 8);
            for (int round = 0; round < 5; round++) {
                out.put(0, rank * 100 + round).put(19_999, -round);
                Prequest.startAll(new Prequest[] {recv, send});
                Request.waitAll(new Request[] {recv, send});
                assertEquals(((rank + size - 1) % size) * 100 + round, in.get(0));
                assertEquals(-round, in.get(19_999));
                assertFalse(send.isNull(), "a persistent request stays valid");
            }
            send.free();
            recv.free();
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void probeThenReceiveAMessageOfUnknownSize(InProcessWorld w) throws Exception {
        w.run(rank -> {
            int size = world().getSize();
            int n = 1000 + rank * 10_000;
            long[] data = new long[n];
            Arrays.fill(data, rank);
            Request send = world().iSend(MPI.slice(copy(data), 0), n, MPI.LONG, (rank + 1) % size, 4);
            Status probed = world().probe(MPI.ANY_SOURCE, 4);
            int prev = (rank + size - 1) % size;
            assertEquals(prev, probed.getSource());
            int count = probed.getCount(MPI.LONG);
            assertEquals(1000 + prev * 10_000, count);
            long[] got = new long[count];
            world().recv(got, count, MPI.LONG, probed.getSource(), 4);
            assertEquals(prev, got[count - 1]);
            send.waitFor();

            // matched probe: the message is taken out of matching until mRecv
            world().send(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 6);
            Message message = new Message();
            Status matched = message.mProbe(MPI.ANY_SOURCE, 6, world());
            assertEquals(prev, matched.getSource());
            assertTrue(world().iProbe(MPI.ANY_SOURCE, 6) == null, "a matched message is not seen by iProbe");
            int[] value = new int[1];
            message.mRecv(value, 1, MPI.INT);
            assertEquals(prev, value[0]);
            assertTrue(message.isNull());
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void sendRecvReplaceAndBufferedSends(InProcessWorld w) throws Exception {
        w.run(rank -> {
            int size = world().getSize();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            int[] data = new int[30_000];
            Arrays.fill(data, rank);
            world().sendRecvReplace(data, 30_000, MPI.INT, next, 2, prev, 2);
            assertEquals(prev, data[0]);
            assertEquals(prev, data[29_999]);

            MPI.attachBuffer(new byte[10 * (4 * 100 + MPI.BSEND_OVERHEAD)]);
            for (int i = 0; i < 10; i++) {
                int[] message = new int[100];
                Arrays.fill(message, rank * 10 + i);
                world().bSend(message, 100, MPI.INT, next, 3);
            }
            for (int i = 0; i < 10; i++) {
                int[] got = new int[100];
                world().recv(got, 100, MPI.INT, prev, 3);
                assertEquals(prev * 10 + i, got[99]);
            }
            world().barrier();
            MPI.detachBuffer();
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void truncationAcrossRanksIsAnErrorAndTheNextMessageIsFine(InProcessWorld w) throws Exception {
        w.run(rank -> {
            world().setErrhandler(MPI.ERRORS_RETURN);
            int size = world().getSize();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            IntBuffer big = MPI.newIntBuffer(50_000);
            big.put(0, rank);
            Request send = world().iSend(big, 50_000, MPI.INT, next, 1);
            int[] small = new int[1000];
            small[999] = -1;
            mpi.MPIException e = org.junit.jupiter.api.Assertions.assertThrows(mpi.MPIException.class,
                    () -> world().recv(small, 10, MPI.INT, prev, 1));
            assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
            assertEquals(prev, small[0]);
            assertEquals(-1, small[999], "nothing written past the receive count");
            send.waitFor();
            int[] ok = new int[1];
            world().sendRecv(new int[] {rank}, 1, MPI.INT, next, 2, ok, 1, MPI.INT, prev, 2);
            assertEquals(prev, ok[0]);
        });
    }

    /**
     * The completion calls that return no status (waitAll, testAll, waitAny, testAny, test, waitSome, testSome,
     * which make none when all went well) take their requests as the ones that do, and still report a failed
     * operation: ERR_IN_STATUS for the "all" and "some" calls, the operation's own class for the "any" ones and
     * for test.
     */
    @ParameterizedTest
    @MethodSource("worlds")
    void completionCallsWithoutStatusesTakeTheirRequestsAndReportATruncatedReceive(InProcessWorld w)
            throws Exception {
        w.run(rank -> {
            world().setErrhandler(MPI.ERRORS_RETURN);
            int size = world().getSize();
            int next = (rank + 1) % size;
            int prev = (rank + size - 1) % size;
            IntBuffer out = MPI.newIntBuffer(4);
            IntBuffer in = MPI.newIntBuffer(4);
            out.put(0, rank);

            Request[] pair = {world().iRecv(in, 4, MPI.INT, prev, 1), world().iSend(out, 4, MPI.INT, next, 1)};
            Request.waitAll(pair);
            assertTrue(pair[0].isNull() && pair[1].isNull(), "waitAll makes its requests null");
            assertEquals(prev, in.get(0));

            in.put(0, -1);
            Request[] later = {world().iRecv(in, 4, MPI.INT, prev, 2), null};
            assertFalse(Request.testAll(later), "nobody sends tag 2 before the barrier");
            world().barrier();
            world().send(out, 4, MPI.INT, next, 2);
            spinUntil(() -> Request.testAll(later));
            assertTrue(later[0].isNull(), "testAll makes its requests null");
            assertEquals(prev, in.get(0));

            Request[] both = {world().iRecv(in, 4, MPI.INT, prev, 3), world().iSend(out, 4, MPI.INT, next, 3)};
            int first = Request.waitAny(both);
            int second = Request.waitAny(both);
            assertEquals(1, first + second, "waitAny returns each completed request once");
            assertEquals(MPI.UNDEFINED, Request.waitAny(both));

            Request single = world().iRecv(in, 4, MPI.INT, prev, 4);
            world().send(out, 4, MPI.INT, next, 4);
            spinUntil(single::test);
            assertTrue(single.isNull() && single.test(), "test makes its request null, and a null request tests true");

            Request[] some = {world().iRecv(in, 4, MPI.INT, prev, 5), world().iSend(out, 4, MPI.INT, next, 5)};
            for (int taken = 0; taken < 2; ) {
                for (int index : Request.waitSome(some)) {
                    assertTrue(some[index].isNull(), "waitSome makes each request it returns null");
                    taken++;
                }
            }
            assertEquals(null, Request.waitSome(some), "all null: waitSome returns null");

            // a receive of 1 int that a message of 4 truncates, through each call
            int tag = 6;
            for (String call : List.of("waitAll", "testAll", "waitAny", "testAny", "test", "waitSome", "testSome")) {
                Request[] one = {world().iRecv(in, 1, MPI.INT, prev, tag)};
                world().send(out, 4, MPI.INT, next, tag++);
                mpi.MPIException e = org.junit.jupiter.api.Assertions.assertThrows(mpi.MPIException.class,
                        () -> complete(call, one));
                int expected = call.endsWith("All") || call.endsWith("Some") ? MPI.ERR_IN_STATUS : MPI.ERR_TRUNCATE;
                assertEquals(expected, e.getErrorClass(), call);
                assertTrue(one[0].isNull(), "a failed " + call + " takes its request too");
            }
        });
    }

    /** Completes {@code requests} by {@code call}, testing calls repeated until they report completion. */
    private static void complete(String call, Request[] requests) throws mpi.MPIException {
        switch (call) {
            case "waitAll" -> Request.waitAll(requests);
            case "testAll" -> spinUntil(() -> Request.testAll(requests));
            case "waitAny" -> Request.waitAny(requests);
            case "testAny" -> spinUntil(() -> Request.testAny(requests) != MPI.UNDEFINED);
            case "test" -> spinUntil(requests[0]::test);
            case "waitSome" -> Request.waitSome(requests);
            case "testSome" -> spinUntil(() -> Request.testSome(requests).length > 0);
            default -> throw new IllegalArgumentException(call);
        }
    }

    /** A test call that may throw. */
    private interface Check {
        boolean done() throws mpi.MPIException;
    }

    private static void spinUntil(Check check) throws mpi.MPIException {
        while (!check.done()) {
            Thread.onSpinWait();
        }
    }

    private static java.nio.LongBuffer copy(long[] data) {
        java.nio.LongBuffer b = MPI.newLongBuffer(data.length);
        b.put(data).clear();
        return b;
    }
}
