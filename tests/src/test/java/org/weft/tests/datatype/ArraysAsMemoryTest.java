package org.weft.tests.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.stream.Stream;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * A Java array is memory, as in Open MPI's bindings (behaviours.md 18–20): {@code MPI.BYTE} and other types of
 * no larger base element move an array's bytes in native order; a struct of ints travels from and into an
 * {@code int[]}; {@code null} buffers carry empty messages; a type with a negative stride over {@code MPI.slice}
 * reaches back into the array or buffer the slice was cut from. Around a ring of two and three ranks in this JVM,
 * on the default methods and on tcp only; bounds are still checked in bytes against the real memory.
 */
@Timeout(120)
class ArraysAsMemoryTest {
    private static final int GAP = -7;

    static Stream<InProcessWorld> worlds() {
        return Stream.of(InProcessWorld.of(2), InProcessWorld.of(3).with("methods", "tcp"));
    }

    private static Intracomm world() {
        return MPI.COMM_WORLD;
    }

    private static int next(int rank) throws MPIException {
        return (rank + 1) % world().getSize();
    }

    private static int prev(int rank) throws MPIException {
        return (rank + world().getSize() - 1) % world().getSize();
    }

    /** The bytes {@code ints} occupy in memory (native order). */
    private static ByteBuffer memoryOf(int... ints) {
        ByteBuffer bytes = ByteBuffer.allocate(ints.length * Integer.BYTES).order(ByteOrder.nativeOrder());
        bytes.asIntBuffer().put(ints);
        return bytes;
    }

    private static int[] intsOf(ByteBuffer memory) {
        int[] ints = new int[memory.capacity() / Integer.BYTES];
        memory.duplicate().clear().order(ByteOrder.nativeOrder()).asIntBuffer().get(ints);
        return ints;
    }

    private static int[] sent(int rank) {
        return new int[] {0x04030201 + (rank << 24), 0x08070605 + rank};
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void byteAndSmallerTypesMoveAnArraysBytesInNativeOrder(InProcessWorld world) throws Exception {
        runReturningErrors(world, rank -> {
            int[] into = {GAP, GAP};
            Status status = world().sendRecv(sent(rank), 6, MPI.BYTE, next(rank), 1, into, 8, MPI.BYTE,
                    prev(rank), 1);
            assertEquals(6, status.getCount(MPI.BYTE));
            ByteBuffer expected = memoryOf(GAP, GAP).put(0, memoryOf(sent(prev(rank))), 0, 6);
            assertArrayEquals(intsOf(expected), into, "6 bytes end inside the second int; the rest is untouched");

            byte[] bytes = new byte[8];
            world().sendRecv(sent(rank), 8, MPI.BYTE, next(rank), 2, bytes, 8, MPI.BYTE, prev(rank), 2);
            assertArrayEquals(memoryOf(sent(prev(rank))).array(), bytes);

            char[] chars = new char[3];
            world().sendRecv(sent(rank), 3, MPI.CHAR, next(rank), 3, chars, 3, MPI.CHAR, prev(rank), 3);
            char[] expectedChars = new char[3];
            memoryOf(sent(prev(rank))).asCharBuffer().get(expectedChars);
            assertArrayEquals(expectedChars, chars, "an int[] with MPI.CHAR counts 2-byte units");

            double[] doubles = {rank + 0.5, -rank};
            long[] bits = new long[2];
            world().sendRecv(doubles, 2, MPI.LONG, next(rank), 4, bits, 2, MPI.LONG, prev(rank), 4);
            assertArrayEquals(new long[] {Double.doubleToRawLongBits(prev(rank) + 0.5),
                    Double.doubleToRawLongBits(-prev(rank))}, bits);

            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(sent(rank), 9, MPI.BYTE, next(rank), 5));
            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(new int[4], 1, MPI.DOUBLE, next(rank), 5));
            assertErrorClass(MPI.ERR_BUFFER, () -> world().recv(new byte[8], 1, MPI.INT, prev(rank), 5));
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void aStructOfIntsTravelsFromAndIntoAnIntArray(InProcessWorld world) throws Exception {
        runReturningErrors(world, rank -> {
            Datatype twoInts = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                    new Datatype[] {MPI.INT, MPI.INT});
            twoInts.commit();
            int[] data = {rank, 11, rank + 2, rank + 3, 14, rank + 5};
            int p = prev(rank);
            int[] packedInts = new int[4];
            world().sendRecv(data, 2, twoInts, next(rank), 1, packedInts, 4, MPI.INT, p, 1);
            assertArrayEquals(new int[] {p, p + 2, p + 3, p + 5}, packedInts);

            int[] into = {GAP, GAP, GAP, GAP, GAP, GAP};
            world().sendRecv(data, 2, twoInts, next(rank), 2, into, 2, twoInts, p, 2);
            assertArrayEquals(new int[] {p, GAP, p + 2, p + 3, GAP, p + 5}, into);

            byte[] packed = new byte[16];
            assertEquals(16, world().pack(data, 2, twoInts, packed, 0));
            byte[] received = new byte[16];
            world().sendRecv(packed, 16, MPI.PACKED, next(rank), 3, received, 16, MPI.PACKED, p, 3);
            int[] unpacked = {GAP, GAP, GAP, GAP, GAP, GAP};
            assertEquals(16, world().unpack(received, 0, unpacked, 2, twoInts));
            assertArrayEquals(new int[] {p, GAP, p + 2, p + 3, GAP, p + 5}, unpacked);

            assertErrorClass(MPI.ERR_BUFFER, () -> world().pack(new int[5], 2, twoInts, packed, 0));
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void nullBuffersCarryEmptyMessages(InProcessWorld world) throws Exception {
        runReturningErrors(world, rank -> {
            world().send(null, 0, MPI.INT, next(rank), 1);
            Status status = world().recv(null, 0, MPI.INT, prev(rank), 1);
            assertEquals(prev(rank), status.getSource());
            assertEquals(0, status.getCount(MPI.INT));
            Request recv = world().iRecv(null, 0, MPI.DOUBLE, prev(rank), 2);
            Request send = world().iSend(null, 0, MPI.DOUBLE, next(rank), 2);
            Request.waitAll(new Request[] {recv, send});
            world().bcast(null, 0, MPI.INT, 0);
            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(null, 1, MPI.INT, next(rank), 3));
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void aSliceMayReachBackIntoTheArrayOrBufferItWasCutFrom(InProcessWorld world) throws Exception {
        runReturningErrors(world, rank -> {
            Datatype backwards = Datatype.createVector(3, 1, -2, MPI.INT); // ints 0, -2, -4 from the start
            backwards.commit();
            int p = prev(rank);
            int[] array = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3, rank * 10 + 4, rank * 10 + 5};
            IntBuffer direct = MPI.newIntBuffer(6);
            direct.put(0, new int[] {GAP, GAP, GAP, GAP, GAP, GAP});
            world().sendRecv(MPI.slice(array, 4), 1, backwards, next(rank), 1, MPI.slice(direct, 4), 1, backwards,
                    p, 1);
            assertArrayEquals(new int[] {p * 10, GAP, p * 10 + 2, GAP, p * 10 + 4, GAP}, contents(direct));

            int[] three = new int[3];
            world().sendRecv(MPI.slice(MPI.slice(direct, 2), 2), 1, backwards, next(rank), 2, three, 3, MPI.INT, p,
                    2);
            int pp = prev(p);
            assertArrayEquals(new int[] {pp * 10 + 4, pp * 10 + 2, pp * 10}, three, "a slice of a slice reaches back"
                    + " into the first buffer");

            IntBuffer into = MPI.newIntBuffer(6);
            Request recv = world().iRecv(MPI.slice(into, 4), 1, backwards, p, 3);
            Request send = world().iSend(MPI.slice(direct, 4), 1, backwards, next(rank), 3);
            Request.waitAll(new Request[] {recv, send});
            assertArrayEquals(new int[] {pp * 10, 0, pp * 10 + 2, 0, pp * 10 + 4, 0}, contents(into));

            byte[] packed = new byte[12];
            world().pack(MPI.slice(array, 5), 1, backwards, packed, 0);
            int[] unpacked = new int[6];
            world().unpack(packed, 0, MPI.slice(unpacked, 4), 1, backwards);
            assertArrayEquals(new int[] {rank * 10 + 1, 0, rank * 10 + 3, 0, rank * 10 + 5, 0}, unpacked);

            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(MPI.slice(array, 3), 1, backwards, next(rank), 4));
            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(MPI.slice(direct, 3), 1, backwards, next(rank), 4));
            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(array, 1, backwards, next(rank), 4));
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void collectivesTreatArraysAsMemoryToo(InProcessWorld world) throws Exception {
        runReturningErrors(world, rank -> {
            int size = world().getSize();
            byte[] all = new byte[4 * size];
            world().allGather(new int[] {rank + 100}, 4, MPI.BYTE, all, 4, MPI.BYTE);
            for (int r = 0; r < size; r++) {
                assertEquals(r + 100, ByteBuffer.wrap(all).order(ByteOrder.nativeOrder()).getInt(4 * r));
            }
            long[] sums = {rank + 1};
            world().allReduce(sums, 2, MPI.INT, MPI.SUM); // the long's two halves, each summed
            assertEquals(size * (size + 1) / 2, sums[0]);
            double[] root = {rank == 0 ? 2.5 : 0};
            world().bcast(root, 1, MPI.LONG, 0);
            assertEquals(2.5, root[0]);
            int[] pair = {rank == size - 1 ? 100 : rank, rank};
            world().allReduce(pair, 1, MPI.INT2, MPI.MAXLOC);
            assertArrayEquals(new int[] {100, size - 1}, pair, "an int[] holds (value, index) pairs of MPI.INT2");
        });
    }

    /** Runs {@code body} on every rank with errors thrown, so that a refused buffer fails the test, not the JVM. */
    private static void runReturningErrors(InProcessWorld world, InProcessWorld.RankBody body) throws Exception {
        world.run(rank -> {
            world().setErrhandler(MPI.ERRORS_RETURN);
            body.run(rank);
        });
    }

    private static int[] contents(IntBuffer buffer) {
        int[] ints = new int[buffer.capacity()];
        buffer.get(0, ints);
        return ints;
    }

    private static void assertErrorClass(int errorClass, org.junit.jupiter.api.function.Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }
}
