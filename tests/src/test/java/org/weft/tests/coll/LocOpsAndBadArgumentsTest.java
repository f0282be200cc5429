package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;

import mpi.DoubleInt;
import mpi.Int2;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * {@code MAXLOC}/{@code MINLOC} on the pair types in Open MPI's C layout (ties go to the lowest index), and bad
 * arguments to collectives giving the right error class on every rank, after which the communicator goes on.
 */
@Timeout(60)
class LocOpsAndBadArgumentsTest {
    private static final int PAIRS = 4;

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3, 4})
    void maxlocAndMinlocPickTheBestValueAndTheLowestIndexOnTies(int size) throws Exception {
        InProcessWorld.of(size).timeout(Duration.ofSeconds(50)).run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            doubleIntMaxloc(comm, rank, size);
            int2Minloc(comm, rank, size);
            everyPairTypeMaxlocOnTies(comm, rank, size);
        });
    }

    /** Pair k: even ranks hold value 5 (a tie among them), odd ranks hold k; indices are 10 + rank. */
    private static void doubleIntMaxloc(Intracomm comm, int rank, int size) throws MPIException {
        byte[] in = new byte[16 * PAIRS];
        for (int k = 0; k < PAIRS; k++) {
            DoubleInt.Data d = MPI.doubleInt.getData(in, k);
            d.putValue(rank % 2 == 0 ? 5.0 : k + 4.0);
            d.putIndex(10 + rank);
        }
        byte[] out = new byte[16 * PAIRS];
        comm.allReduce(in, out, PAIRS, MPI.DOUBLE_INT, MPI.MAXLOC);
        for (int k = 0; k < PAIRS; k++) {
            DoubleInt.Data d = MPI.doubleInt.getData(out, k);
            boolean oddWins = size > 1 && k + 4.0 > 5.0;
            assertEquals(oddWins ? k + 4.0 : 5.0, d.getValue(), "MAXLOC value of pair " + k);
            assertEquals(oddWins ? 11 : 10, d.getIndex(), "MAXLOC index of pair " + k + " (ties: lowest)");
        }
    }

    /** Every rank holds value 7 in pair 0 (all tie), and value (size − rank) in pair 1. */
    private static void int2Minloc(Intracomm comm, int rank, int size) throws MPIException {
        ByteBuffer buf = MPI.newByteBuffer(8 * 2);
        Int2.Data tie = MPI.int2.getData(buf, 0);
        tie.putValue(7);
        tie.putIndex(100 - rank);
        Int2.Data distinct = MPI.int2.getData(buf, 1);
        distinct.putValue(size - rank);
        distinct.putIndex(rank);
        comm.allReduce(buf, 2, MPI.INT2, MPI.MINLOC);
        assertEquals(7, MPI.int2.<Int2.Data>getData(buf, 0).getValue());
        assertEquals(100 - (size - 1), MPI.int2.<Int2.Data>getData(buf, 0).getIndex(), "tie: lowest index");
        assertEquals(1, MPI.int2.<Int2.Data>getData(buf, 1).getValue());
        assertEquals(size - 1, MPI.int2.<Int2.Data>getData(buf, 1).getIndex());
    }

    /** SHORT_INT, LONG_INT, FLOAT_INT written at their C offsets: value 3 everywhere, index 50 − rank. */
    private static void everyPairTypeMaxlocOnTies(Intracomm comm, int rank, int size) throws MPIException {
        record Layout(mpi.Datatype type, int bytes, int indexAt) {
        }
        for (Layout layout : new Layout[] {new Layout(MPI.SHORT_INT, 8, 4), new Layout(MPI.LONG_INT, 16, 8),
                new Layout(MPI.FLOAT_INT, 8, 4)}) {
            ByteBuffer buf = ByteBuffer.allocateDirect(layout.bytes()).order(ByteOrder.nativeOrder());
            if (layout.type() == MPI.SHORT_INT) {
                buf.putShort(0, (short) 3);
            } else if (layout.type() == MPI.LONG_INT) {
                buf.putLong(0, 3L);
            } else {
                buf.putFloat(0, 3f);
            }
            buf.putInt(layout.indexAt(), 50 - rank);
            int root = size - 1;
            ByteBuffer result = ByteBuffer.allocateDirect(layout.bytes()).order(ByteOrder.nativeOrder());
            comm.reduce(buf, result, 1, layout.type(), MPI.MAXLOC, root);
            if (rank == root) {
                assertEquals(50 - (size - 1), result.getInt(layout.indexAt()), "MAXLOC tie on " + layout.type());
            }
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void badArgumentsGiveTheirErrorClassAndTheCommunicatorGoesOn(int size) throws Exception {
        InProcessWorld.of(size).with("methods", "tcp").timeout(Duration.ofSeconds(50)).run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            comm.setErrhandler(MPI.ERRORS_RETURN);
            int[] buf = new int[4 * size];
            assertError(MPI.ERR_ROOT, () -> comm.gather(buf, 1, MPI.INT, buf, 1, MPI.INT, size));
            assertError(MPI.ERR_ROOT, () -> comm.scatterv(buf, new int[size], new int[size], MPI.INT, buf, 0,
                    MPI.INT, -1));
            assertError(MPI.ERR_ROOT, () -> comm.iBcast(MPI.newIntBuffer(1), 1, MPI.INT, size + 3));
            assertError(MPI.ERR_COUNT, () -> comm.allGather(buf, -1, MPI.INT, buf, -1, MPI.INT));
            assertError(MPI.ERR_COUNT, () -> comm.allToAll(buf, -2, MPI.INT, buf, 1, MPI.INT));
            assertError(MPI.ERR_COUNT, () -> comm.reduceScatterBlock(buf, buf, -1, MPI.INT, MPI.SUM));
            assertError(MPI.ERR_COUNT, () -> comm.iAllReduce(MPI.newIntBuffer(1), MPI.newIntBuffer(1), -1,
                    MPI.INT, MPI.SUM));
            assertError(MPI.ERR_BUFFER, () -> comm.allGather(buf, 4, MPI.INT, new int[1], 4, MPI.INT));
            assertError(MPI.ERR_OP, () -> comm.allReduce(buf, 1, MPI.INT, MPI.MAXLOC));
            // a type that stages (every other int) into a read-only buffer: ERR_BUFFER, not a Java exception
            mpi.Datatype everyOther = mpi.Datatype.createResized(MPI.INT, 0, 8);
            everyOther.commit();
            assertError(MPI.ERR_BUFFER, () -> comm.allReduce(MPI.newIntBuffer(4), MPI.newIntBuffer(4)
                    .asReadOnlyBuffer(), 2, everyOther, MPI.SUM));
            everyOther.free();
            // an operation a derived type does not take: the message names the type (whose name is empty)
            mpi.Datatype twoInts = mpi.Datatype.createContiguous(2, MPI.INT);
            twoInts.commit();
            MPIException notDefined = assertThrows(MPIException.class, () -> comm.allReduce(buf, 1, twoInts,
                    MPI.SUM));
            assertEquals(MPI.ERR_OP, notDefined.getErrorClass());
            assertTrue(notDefined.getMessage().contains("derived INT"), notDefined.getMessage());
            twoInts.free();
            int[] ones = new int[size];
            java.util.Arrays.fill(ones, 1);
            int[] displs = java.util.stream.IntStream.range(0, size).toArray();
            assertError(MPI.ERR_TRUNCATE, () -> comm.allGatherv(buf, 2, MPI.INT, buf, ones, displs, MPI.INT));
            assertError(MPI.ERR_ARG, () -> comm.allToAllv(buf, new int[0], new int[0], MPI.INT, buf, ones, displs,
                    MPI.INT));
            assertError(MPI.ERR_TOPOLOGY, () -> comm.neighborAllGather(buf, 1, MPI.INT, buf, 1, MPI.INT));
            int[] sum = {rank};
            comm.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(size * (size - 1) / 2, sum[0], "the communicator still works");
        });
    }

    private interface Call {
        void run() throws MPIException;
    }

    private static void assertError(int errorClass, Call call) {
        assertEquals(errorClass, assertThrows(MPIException.class, call::run).getErrorClass());
    }
}
