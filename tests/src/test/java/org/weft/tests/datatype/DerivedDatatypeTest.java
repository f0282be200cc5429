package org.weft.tests.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * Derived datatypes between ranks: vector, indexed, struct and resized types around a ring, with counts above
 * one so that extents matter, from and into Java arrays and direct buffers, blocking, nonblocking and
 * persistent; a matrix transpose through a resized column type; a bcast of a vector type; pack/unpack
 * across ranks. Two and three ranks in this JVM, on the default methods and on tcp only. Gaps of the receive
 * buffers hold a marker that must survive.
 */
@Timeout(120)
class DerivedDatatypeTest {
    private static final int GAP = -7;

    static Stream<InProcessWorld> worlds() {
        List<InProcessWorld> worlds = new ArrayList<>();
        for (int size : new int[] {2, 3}) {
            worlds.add(InProcessWorld.of(size));
            worlds.add(InProcessWorld.of(size).with("methods", "tcp"));
        }
        return worlds.stream();
    }

    private static Intracomm world() {
        return MPI.COMM_WORLD;
    }

    static int next(int rank) throws MPIException {
        return (rank + 1) % world().getSize();
    }

    static int prev(int rank) throws MPIException {
        int size = world().getSize();
        return (rank + size - 1) % size;
    }

    /**
     * A vector of {@code blocks} blocks of 2 ints every 3 ints, resized to {@code 3 blocks} ints (a vector's own
     * extent ends after its last block), so that consecutive items take the ints at 3k and 3k+1.
     */
    private static Datatype pairsOfThree(int blocks) throws MPIException {
        Datatype vector = Datatype.createVector(blocks, 2, 3, MPI.INT);
        assertEquals(3 * blocks - 1, vector.getExtent());
        Datatype t = Datatype.createResized(vector, 0, 3 * blocks * Integer.BYTES);
        vector.free();
        t.commit();
        return t;
    }

    private static int[] expectedPairsOfThree(int[] source, int ints) {
        int[] expected = new int[ints];
        for (int i = 0; i < ints; i++) {
            expected[i] = i % 3 == 2 ? GAP : source[i];
        }
        return expected;
    }

    private static int[] pattern(int n, int seed) {
        int[] v = new int[n];
        for (int i = 0; i < n; i++) {
            v[i] = seed * 100_003 + i;
        }
        return v;
    }

    private static int[] gaps(int n) {
        int[] v = new int[n];
        java.util.Arrays.fill(v, GAP);
        return v;
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void vectorFromArraysBlockingAndNonblockingIntoBuffers(InProcessWorld w) throws Exception {
        w.run(rank -> {
            for (int blocks : new int[] {1, 4, 12_000}) { // 12 000 blocks x 2 items: 192 000 bytes, rendezvous
                Datatype type = pairsOfThree(blocks);
                int count = 2;
                int ints = count * blocks * 3 - 1; // the extent ends after the last block: no gap after it
                int[] out = pattern(ints, rank);
                int[] in = gaps(ints);
                Status status = world().sendRecv(out, count, type, next(rank), 1, in, count, type, prev(rank), 1);
                assertArrayEquals(expectedPairsOfThree(pattern(ints, prev(rank)), ints), in, "blocks " + blocks);
                assertEquals(count, status.getCount(type));
                assertEquals(count * blocks * 2, status.getElements(type));

                IntBuffer target = MPI.newIntBuffer(ints);
                target.put(gaps(ints)).clear();
                Request recv = world().iRecv(target, count, type, prev(rank), 2);
                IntBuffer source = MPI.newIntBuffer(ints);
                source.put(out).clear();
                Request send = world().iSend(source, count, type, next(rank), 2);
                send.waitFor();
                Status received = recv.waitStatus();
                int[] got = new int[ints];
                target.get(0, got);
                assertArrayEquals(expectedPairsOfThree(pattern(ints, prev(rank)), ints), got,
                        "nonblocking, blocks " + blocks);
                assertEquals(count, received.getCount(type));
                type.free();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void persistentRequestsRepackAndUnpackAtEveryStart(InProcessWorld w) throws Exception {
        w.run(rank -> {
            Datatype type = pairsOfThree(5);
            int ints = 3 * 3 * 5 - 1;
            IntBuffer source = MPI.newIntBuffer(ints);
            IntBuffer target = MPI.newIntBuffer(ints);
            Prequest send = world().sendInit(source, 3, type, next(rank), 3);
            Prequest recv = world().recvInit(target, 3, type, prev(rank), 3);
            for (int round = 0; round < 4; round++) {
                source.put(0, pattern(ints, rank * 10 + round)).clear();
                target.put(0, gaps(ints)).clear();
                recv.start();
                send.start();
                Request.waitAll(new Request[] {send, recv});
                int[] got = new int[ints];
                target.get(0, got);
                assertArrayEquals(expectedPairsOfThree(pattern(ints, prev(rank) * 10 + round), ints), got,
                        "round " + round);
            }
            send.free();
            recv.free();
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void resizedColumnTypeTransposesAMatrix(InProcessWorld w) throws Exception {
        w.run(rank -> {
            int rows = 5;
            int cols = 7;
            Datatype column = Datatype.createVector(rows, 1, cols, MPI.DOUBLE);
            Datatype oneColumn = Datatype.createResized(column, 0, Double.BYTES);
            oneColumn.commit();
            assertEquals(1, oneColumn.getExtent());
            assertEquals(rows, oneColumn.getSize());
            assertEquals((rows - 1) * cols + 1, oneColumn.getTrueExtent());
            double[] matrix = new double[rows * cols];
            for (int i = 0; i < matrix.length; i++) {
                matrix[i] = rank * 1000 + i;
            }
            double[] transposed = new double[rows * cols];
            world().sendRecv(matrix, cols, oneColumn, next(rank), 4, transposed, rows * cols, MPI.DOUBLE,
                    prev(rank), 4);
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    assertEquals(prev(rank) * 1000 + r * cols + c, transposed[c * rows + r], "(" + r + "," + c + ")");
                }
            }
            DoubleBuffer back = MPI.newDoubleBuffer(rows * cols);
            Request recv = world().iRecv(back, cols, oneColumn, prev(rank), 5);
            world().send(transposed, rows * cols, MPI.DOUBLE, next(rank), 5);
            recv.waitFor();
            double[] twice = new double[rows * cols];
            back.get(0, twice);
            double[] expected = new double[rows * cols];
            int origin = prev(prev(rank));
            for (int i = 0; i < expected.length; i++) {
                expected[i] = origin * 1000 + i;
            }
            assertArrayEquals(expected, twice, 0.0, "transposed back");
            oneColumn.free();
            column.free();
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void indexedAndHIndexedTypes(InProcessWorld w) throws Exception {
        w.run(rank -> {
            Datatype indexed = Datatype.createIndexed(new int[] {2, 1}, new int[] {4, 0}, MPI.INT);
            indexed.commit();
            assertEquals(6, indexed.getExtent());
            Datatype hindexed = Datatype.createHIndexed(new int[] {2, 1}, new int[] {16, 0}, MPI.INT);
            hindexed.commit();
            int[] out = pattern(12, rank);
            int[] in = gaps(12);
            world().sendRecv(out, 2, indexed, next(rank), 6, in, 2, hindexed, prev(rank), 6);
            int[] from = pattern(12, prev(rank));
            int[] expected = gaps(12);
            for (int item = 0; item < 2; item++) {
                for (int i : new int[] {0, 4, 5}) {
                    expected[item * 6 + i] = from[item * 6 + i];
                }
            }
            assertArrayEquals(expected, in);
            indexed.free();
            hindexed.free();
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void structRecordsThroughMpiStruct(InProcessWorld w) throws Exception {
        w.run(rank -> {
            Record record = new Record();
            assertEquals(24, record.getExtent());
            Datatype type = record.getType();
            assertEquals(14, type.getSize());
            assertEquals(24, type.getExtent());
            int n = 3;
            byte[] out = new byte[n * record.getExtent()];
            for (int i = 0; i < n; i++) {
                Record.Data d = record.getData(out, i);
                d.put(rank * 10 + i, rank + i / 4.0, (char) ('a' + i));
            }
            byte[] in = new byte[n * record.getExtent()];
            Status status = world().sendRecv(out, n, type, next(rank), 7, in, n, type, prev(rank), 7);
            assertEquals(n, status.getCount(type));
            assertEquals(3 * n, status.getElements(type));
            for (int i = 0; i < n; i++) {
                Record.Data d = record.getData(in, i);
                assertEquals(prev(rank) * 10 + i, d.id());
                assertEquals(prev(rank) + i / 4.0, d.value());
                assertEquals((char) ('a' + i), d.tag());
            }
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void doubleIntPairsAtTheirCExtent(InProcessWorld w) throws Exception {
        w.run(rank -> {
            assertEquals(12, MPI.DOUBLE_INT.getSize());
            assertEquals(16, MPI.DOUBLE_INT.getExtent());
            byte[] out = new byte[2 * 16];
            for (int i = 0; i < 2; i++) {
                mpi.DoubleInt.Data d = MPI.doubleInt.getData(out, i);
                d.putValue(rank + 0.5 * i);
                d.putIndex(rank * 2 + i);
            }
            byte[] in = new byte[2 * 16];
            Status status = world().sendRecv(out, 2, MPI.DOUBLE_INT, next(rank), 8, in, 2, MPI.DOUBLE_INT,
                    prev(rank), 8);
            assertEquals(2, status.getCount(MPI.DOUBLE_INT));
            assertEquals(4, status.getElements(MPI.DOUBLE_INT));
            for (int i = 0; i < 2; i++) {
                mpi.DoubleInt.Data d = MPI.doubleInt.getData(in, i);
                assertEquals(prev(rank) + 0.5 * i, d.getValue());
                assertEquals(prev(rank) * 2 + i, d.getIndex());
            }
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void bcastOfAVectorType(InProcessWorld w) throws Exception {
        w.run(rank -> {
            for (int blocks : new int[] {3, 12_000}) {
                Datatype type = pairsOfThree(blocks);
                int ints = 2 * blocks * 3 - 1;
                int root = world().getSize() - 1;
                int[] buf = rank == root ? pattern(ints, 42) : gaps(ints);
                world().bcast(buf, 2, type, root);
                int[] expected = rank == root ? pattern(ints, 42) : expectedPairsOfThree(pattern(ints, 42), ints);
                assertArrayEquals(expected, buf, "blocks " + blocks);
                type.free();
            }
        });
    }

    @ParameterizedTest
    @MethodSource("worlds")
    void packedOnOneRankUnpackedOnTheNext(InProcessWorld w) throws Exception {
        w.run(rank -> {
            Datatype type = pairsOfThree(2);
            int[] ints = pattern(11, rank);
            double[] doubles = {rank, rank + 0.25};
            int size = world().packSize(2, type) + world().packSize(2, MPI.DOUBLE);
            assertEquals(2 * 4 * 4 + 2 * 8, size);
            byte[] packed = new byte[size];
            int position = world().pack(ints, 2, type, packed, 0);
            position = world().pack(doubles, 2, MPI.DOUBLE, packed, position);
            assertEquals(size, position);
            byte[] received = new byte[size];
            world().sendRecv(packed, size, MPI.PACKED, next(rank), 9, received, size, MPI.PACKED, prev(rank), 9);
            int[] unpackedInts = gaps(11);
            double[] unpackedDoubles = new double[2];
            position = world().unpack(received, 0, unpackedInts, 2, type);
            position = world().unpack(received, position, unpackedDoubles, 2, MPI.DOUBLE);
            assertEquals(size, position);
            assertArrayEquals(expectedPairsOfThree(pattern(11, prev(rank)), 11), unpackedInts);
            assertArrayEquals(new double[] {prev(rank), prev(rank) + 0.25}, unpackedDoubles);
            world().setErrhandler(MPI.ERRORS_RETURN);
            MPIException e = assertThrows(MPIException.class, () -> world().unpack(received, size - 8, unpackedInts, 2,
                    type));
            assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
        });
    }

    @Test
    void extentsSizesNamesAndErrorsAsOpenMpi() throws Exception {
        InProcessWorld.of(1).run(rank -> {
            world().setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(1, MPI.INT.getSize());
            assertEquals(1, MPI.DOUBLE.getExtent());
            Datatype four = Datatype.createContiguous(4, MPI.INT);
            assertEquals(4, four.getExtent());
            assertEquals(4, four.getSize());
            assertEquals(2, Datatype.createResized(MPI.INT, 0, 8).getExtent());
            Datatype shifted = Datatype.createResized(MPI.DOUBLE, -16, 32);
            assertEquals(-2, shifted.getLb());
            assertEquals(4, shifted.getExtent());
            assertEquals(0, shifted.getTrueLb());
            assertEquals(1, shifted.getTrueExtent());
            Datatype hvector = Datatype.createHVector(3, 1, 12, MPI.INT);
            assertEquals(7, hvector.getExtent(), "28 bytes");
            assertEquals(3, hvector.getSize());
            Datatype struct = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 4},
                    new Datatype[] {MPI.INT, MPI.SHORT});
            assertEquals(8, struct.getSize());
            assertEquals(8, struct.getExtent());
            assertEquals(8, MPI.SHORT_INT.getExtent());
            assertEquals(6, MPI.SHORT_INT.getSize());
            assertEquals(2, MPI.DOUBLE_COMPLEX.getSize());

            assertEquals("MPI_INT", MPI.INT.getName());
            four.setName("four ints");
            Datatype copy = four.dup();
            assertEquals("four ints", copy.getName());
            int[] buf = new int[8];
            assertErrorClass(MPI.ERR_TYPE, () -> world().send(buf, 1, four, 0, 0));
            assertErrorClass(MPI.ERR_TYPE, () -> world().pack(buf, 1, four, new byte[16], 0));
            four.commit();
            world().send(buf, 2, four, MPI.PROC_NULL, 0);
            assertErrorClass(MPI.ERR_COUNT, () -> world().send(buf, -1, four, 0, 0));
            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(buf, 3, four, 0, 0));
            assertErrorClass(MPI.ERR_BUFFER, () -> world().send(new short[8], 1, four, 0, 0));
            assertErrorClass(MPI.ERR_COUNT, () -> Datatype.createVector(-1, 1, 1, MPI.INT));
            copy.free();
            assertEquals(true, copy.isNull());
            assertErrorClass(MPI.ERR_TYPE, () -> world().send(buf, 1, copy, 0, 0));
            assertErrorClass(MPI.ERR_TYPE, copy::getExtent);
            assertEquals(4, four.getSize(), "the original outlives its freed duplicate");

            mpi.DoubleComplex z = mpi.DoubleComplex.get(new double[] {1, 2, 3, 4}, 1);
            assertEquals(3.0, z.getReal());
            z.putImag(9);
            assertEquals(9.0, z.getImag());
        });
    }

    private static void assertErrorClass(int errorClass, org.junit.jupiter.api.function.Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }
}
