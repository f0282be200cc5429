package org.weft.core.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.IntBuffer;

import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.WorldConfig;
import org.weft.core.RuntimeBinding;

/**
 * The collective entry points of the {@code mpi} facade in a world of one (the multi-rank cases are in the
 * {@code tests} module): {@code reduceLocal}, user operations, and the error class of every bad argument.
 */
@Timeout(30)
class SingletonCollectivesTest {
    interface Body {
        void run(Intracomm world) throws Exception;
    }

    interface Call {
        void run() throws Exception;
    }

    private static void inWorld(Body body) throws Exception {
        RuntimeBinding.runWithConfig(WorldConfig.singleton(), () -> {
            MPI.Init(new String[0]);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            body.run(MPI.COMM_WORLD);
            MPI.Finalize();
            return null;
        });
    }

    private static void assertErrorClass(int errorClass, Call call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }

    /** {@code inout[i] = in[i] - inout[i]}: not commutative, so operand order is visible. */
    static final class Minus extends UserFunction {
        int calls;

        @Override
        public void call(Object in, Object inout, int count, Datatype datatype) {
            calls++;
            int[] a = (int[]) in;
            int[] b = (int[]) inout;
            for (int i = 0; i < count; i++) {
                b[i] = a[i] - b[i];
            }
        }
    }

    @Test
    void reduceLocalAppliesPredefinedOpsInPlace() throws MPIException {
        int[] land = {7, 0, 9};
        Comm.reduceLocal(new int[] {5, 3, 0}, land, 3, MPI.INT, MPI.LAND);
        assertArrayEquals(new int[] {1, 0, 0}, land);
        double[] sum = {0.5, 1.5};
        Comm.reduceLocal(new double[] {1, 2}, sum, 2, MPI.DOUBLE, MPI.SUM);
        assertArrayEquals(new double[] {1.5, 3.5}, sum);
        boolean[] lor = {false, true, false};
        Comm.reduceLocal(new boolean[] {true, false, false}, lor, 3, MPI.BOOLEAN, MPI.LOR);
        assertArrayEquals(new boolean[] {true, true, false}, lor);
        IntBuffer max = MPI.newIntBuffer(2).put(0, 4).put(1, -4);
        Comm.reduceLocal(MPI.newIntBuffer(2).put(0, 1).put(1, 1), max, 2, MPI.INT, MPI.MAX);
        assertEquals(4, max.get(0));
        assertEquals(1, max.get(1));
    }

    @Test
    void userOpIsReusableAndKeepsOperandOrder() throws MPIException {
        Minus minus = new Minus();
        Op op = new Op(minus, false);
        for (int round = 0; round < 3; round++) {
            int[] inout = {1, 2};
            Comm.reduceLocal(new int[] {10, 20}, inout, 2, MPI.INT, op);
            assertArrayEquals(new int[] {9, 18}, inout);
        }
        assertEquals(3, minus.calls);
        op.free();
        assertErrorClass(MPI.ERR_OP, () -> Comm.reduceLocal(new int[1], new int[1], 1, MPI.INT, op));
    }

    @Test
    void collectivesInAWorldOfOne() throws Exception {
        inWorld(world -> {
            int[] data = {3, 4};
            world.bcast(data, 2, MPI.INT, 0);
            assertArrayEquals(new int[] {3, 4}, data);
            int[] out = new int[2];
            world.reduce(data, out, 2, MPI.INT, MPI.PROD, 0);
            assertArrayEquals(new int[] {3, 4}, out);
            world.allReduce(new int[] {5, 6}, out, 2, MPI.INT, new Op(new Minus(), false));
            assertArrayEquals(new int[] {5, 6}, out);
            world.allReduce(out, 2, MPI.INT, MPI.SUM);
            assertArrayEquals(new int[] {5, 6}, out);
        });
    }

    @Test
    void badArgumentsGiveTheirErrorClass() throws Exception {
        inWorld(world -> {
            int[] buf = new int[4];
            assertErrorClass(MPI.ERR_ROOT, () -> world.bcast(buf, 1, MPI.INT, 1));
            assertErrorClass(MPI.ERR_ROOT, () -> world.reduce(buf, buf, 1, MPI.INT, MPI.SUM, -1));
            assertErrorClass(MPI.ERR_COUNT, () -> world.bcast(buf, -1, MPI.INT, 0));
            assertErrorClass(MPI.ERR_COUNT, () -> world.allReduce(buf, new int[4], -1, MPI.INT, MPI.SUM));
            assertErrorClass(MPI.ERR_TYPE, () -> world.bcast(buf, 1, null, 0));
            assertErrorClass(MPI.ERR_TYPE, () -> world.reduce(buf, buf, 1, MPI.DATATYPE_NULL, MPI.SUM, 0));
            Datatype freed = MPI.INT.dup();
            freed.free();
            assertErrorClass(MPI.ERR_TYPE, () -> world.allReduce(buf, 1, freed, MPI.SUM));
            assertErrorClass(MPI.ERR_OP, () -> world.allReduce(buf, 1, MPI.INT, null));
            assertErrorClass(MPI.ERR_OP, () -> world.reduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BAND, 0));
            assertErrorClass(MPI.ERR_OP, () -> world.allReduce(new boolean[1], 1, MPI.BOOLEAN, MPI.SUM));
            assertErrorClass(MPI.ERR_OP, () -> world.allReduce(buf, 1, MPI.INT, MPI.REPLACE));
            assertErrorClass(MPI.ERR_OP, () -> world.allReduce(buf, 1, MPI.INT, MPI.MAXLOC));
            assertErrorClass(MPI.ERR_BUFFER, () -> world.bcast(buf, 5, MPI.INT, 0));
            assertErrorClass(MPI.ERR_BUFFER, () -> world.reduce(buf, new int[2], 4, MPI.INT, MPI.SUM, 0));
            assertErrorClass(MPI.ERR_BUFFER, () -> world.allReduce(new short[4], 4, MPI.INT, MPI.SUM));
            assertErrorClass(MPI.ERR_BUFFER, () -> world.bcast(null, 1, MPI.INT, 0));
            // the communicator still works after the errors
            int[] sum = {2};
            world.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(2, sum[0]);
        });
    }

    @Test
    void freedUserOpAndNullOpGiveErrOpFromReduceLocal() {
        assertErrorClass(MPI.ERR_OP, () -> Comm.reduceLocal(new int[1], new int[1], 1, MPI.INT, null));
        assertErrorClass(MPI.ERR_OP, () -> Comm.reduceLocal(new float[1], new float[1], 1, MPI.FLOAT, MPI.LXOR));
        assertErrorClass(MPI.ERR_BUFFER, () -> Comm.reduceLocal(new int[1], new int[2], 2, MPI.INT, MPI.SUM));
    }
}
