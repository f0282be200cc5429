package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.IntBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.IntStream;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * Bcast, reduce and allreduce among N ranks in one JVM over TCP: every size from 1 to 5 and 8, roots at both
 * ends and in the middle, counts 0, 1, 1000 and 100 000 ints (past the rendezvous threshold), predefined and
 * non-commutative user operations, arrays, {@code boolean[]} and direct buffers, in place or not. The
 * collectives follow each other on one communicator with changing roots, so messages of consecutive
 * collectives that mixed would show as wrong values.
 */
@Timeout(240)
class CollectivesTest {
    private static final int[] COUNTS = {0, 1, 1000, 100_000};

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 8})
    void bcastReduceAllreduce(int size) throws Exception {
        InProcessWorld.of(size).with("methods", "tcp").timeout(Duration.ofSeconds(200)).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Op affine = new Op(new AffineComposition(), false);
            for (int count : COUNTS) {
                for (int root : roots(size)) {
                    bcast(world, rank, count, root);
                    reduceSum(world, rank, size, count, root);
                    reduceMaxInPlace(world, rank, size, count, root);
                    reduceInRankOrder(world, rank, size, count, root, affine);
                }
                allReduceDouble(world, rank, size, count);
                allReduceInPlaceDirectBuffer(world, rank, size, count);
                allReduceBooleans(world, rank, size, count);
                allReduceInRankOrder(world, rank, size, count, affine);
            }
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 5})
    void badRootOnEveryRankIsErrRootAndTheCommunicatorGoesOn(int size) throws Exception {
        InProcessWorld.of(size).with("methods", "tcp").run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int[] buf = {rank};
            assertEquals(MPI.ERR_ROOT, assertThrows(MPIException.class,
                    () -> world.bcast(buf, 1, MPI.INT, size)).getErrorClass());
            assertEquals(MPI.ERR_ROOT, assertThrows(MPIException.class,
                    () -> world.reduce(buf, new int[1], 1, MPI.INT, MPI.SUM, -1)).getErrorClass());
            world.allReduce(buf, 1, MPI.INT, MPI.SUM);
            assertEquals(size * (size - 1) / 2, buf[0]);
        });
    }

    private static int[] roots(int size) {
        return IntStream.of(0, size - 1, size / 2).distinct().toArray();
    }

    private static double[] filledDoubles(int count, double value) {
        double[] v = new double[count];
        Arrays.fill(v, value);
        return v;
    }

    private static int[] pattern(int count, int seed) {
        int[] v = new int[count];
        for (int i = 0; i < count; i++) {
            v[i] = seed * 1_000_003 + i * 31;
        }
        return v;
    }

    private static void bcast(Intracomm world, int rank, int count, int root) throws MPIException {
        int[] buf = rank == root ? pattern(count, root) : filled(count + 1, -7);
        world.bcast(buf, count, MPI.INT, root);
        int[] expected = Arrays.copyOf(pattern(count, root), rank == root ? count : count + 1);
        if (rank != root) {
            expected[count] = -7; // past the count nothing is written
        }
        assertArrayEquals(expected, buf, "bcast of " + count + " from " + root);
    }

    private static void reduceSum(Intracomm world, int rank, int size, int count, int root) throws MPIException {
        int[] send = new int[count];
        for (int i = 0; i < count; i++) {
            send[i] = rank * 7 + i;
        }
        int[] before = send.clone();
        int[] recv = rank == root ? filled(count, -1) : null; // the receive buffer matters at the root only
        world.reduce(send, recv, count, MPI.INT, MPI.SUM, root);
        assertArrayEquals(before, send, "reduce leaves the send buffer alone");
        if (rank == root) {
            int[] expected = new int[count];
            for (int i = 0; i < count; i++) {
                expected[i] = 7 * size * (size - 1) / 2 + size * i;
            }
            assertArrayEquals(expected, recv, "reduce SUM of " + count + " to " + root);
        } else {
            assertNull(recv);
        }
    }

    private static void reduceMaxInPlace(Intracomm world, int rank, int size, int count, int root)
            throws MPIException {
        int[] buf = new int[count];
        for (int i = 0; i < count; i++) {
            buf[i] = (rank + i) % size - 5;
        }
        world.reduce(buf, count, MPI.INT, MPI.MAX, root);
        if (rank == root) {
            for (int i = 0; i < count; i++) {
                assertEquals(size - 1 - 5, buf[i], "in-place MAX element " + i + " at root " + root);
            }
        }
    }

    private static void reduceInRankOrder(Intracomm world, int rank, int size, int count, int root, Op affine)
            throws MPIException {
        int even = count & ~1;
        int[] recv = new int[even];
        world.reduce(AffineComposition.contribution(rank, even), recv, even, MPI.INT, affine, root);
        if (rank == root) {
            assertArrayEquals(AffineComposition.expected(size, even), recv,
                    "non-commutative reduce of " + even + " to " + root + " keeps rank order");
        }
    }

    /** Cpi's pattern: doubles summed; halves and small integers add exactly whatever the order. */
    private static void allReduceDouble(Intracomm world, int rank, int size, int count) throws MPIException {
        double[] send = new double[count];
        Arrays.fill(send, rank + 0.5);
        double[] recv = new double[count];
        world.allReduce(send, recv, count, MPI.DOUBLE, MPI.SUM);
        // the schedules send and combine from the send buffer itself, which must come out as it went in
        assertArrayEquals(filledDoubles(count, rank + 0.5), send, "allreduce leaves the send buffer alone");
        double expected = size * (size - 1) / 2.0 + size * 0.5;
        for (int i = 0; i < count; i++) {
            assertEquals(expected, recv[i], 0.0, "allreduce SUM element " + i);
        }
    }

    private static void allReduceInPlaceDirectBuffer(Intracomm world, int rank, int size, int count)
            throws MPIException {
        IntBuffer buf = MPI.newIntBuffer(Math.max(count, 1));
        for (int i = 0; i < count; i++) {
            buf.put(i, (1 << (rank % 31)) ^ i);
        }
        world.allReduce(buf, count, MPI.INT, MPI.BXOR);
        int bits = 0;
        for (int r = 0; r < size; r++) {
            bits ^= 1 << (r % 31);
        }
        for (int i = 0; i < count; i++) {
            int expected = bits ^ (size % 2 == 1 ? i : 0);
            assertEquals(expected, buf.get(i), "in-place BXOR on a direct buffer, element " + i);
        }
    }

    private static void allReduceBooleans(Intracomm world, int rank, int size, int count) throws MPIException {
        boolean[] send = new boolean[count];
        for (int i = 0; i < count; i++) {
            send[i] = i % 2 == 0 || rank != size - 1; // odd elements are false on the last rank only
        }
        boolean[] and = new boolean[count];
        world.allReduce(send, and, count, MPI.BOOLEAN, MPI.LAND);
        for (int i = 0; i < count; i++) {
            assertEquals(i % 2 == 0, and[i], "LAND element " + i);
        }
    }

    private static void allReduceInRankOrder(Intracomm world, int rank, int size, int count, Op affine)
            throws MPIException {
        int even = count & ~1;
        int[] buf = AffineComposition.contribution(rank, even);
        world.allReduce(buf, even, MPI.INT, affine);
        assertArrayEquals(AffineComposition.expected(size, even), buf, "non-commutative allreduce in place");
    }

    private static int[] filled(int count, int value) {
        int[] v = new int[count];
        Arrays.fill(v, value);
        return v;
    }
}
