package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.time.Duration;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * A blocking barrier, bcast, reduce, allreduce, allgather, alltoall, gather, scatter, scan or exscan called again
 * with the same arguments runs the schedule its communicator kept from the earlier call. Such a schedule must move
 * each call's data: here the same buffers are reused call after call with new contents, roots alternate (two kept
 * schedules each for bcast, reduce and gather), two allreduces alternate between two pairs of buffers, in place and
 * not, an allgather, an alltoall, a scatter, two scans (one in place) and an exscan follow — sixteen kept schedules
 * in all, as many as a communicator keeps — and nonblocking collectives (never kept) on the same buffers come in
 * between, so a schedule that read its data when built, kept a stale tag or was not made pending again would show
 * as a wrong value or a hang (a kept schedule left complete fails every case). Flat worlds of 1–5 ranks (folds of
 * non-powers of two) and 6 ranks over 2 sites (the hierarchical algorithms).
 */
@Timeout(120)
class KeptSchedulesTest {
    private static final int CALLS = 300;

    @ParameterizedTest(name = "{0} ranks over {1} site(s)")
    @CsvSource({"1, 1", "2, 1", "3, 1", "4, 1", "5, 1", "6, 2"})
    void repeatedBlockingCollectivesMoveEachCallsData(int size, int sites) throws Exception {
        InProcessWorld.of(size).with("methods", "tcp").perRank("site", r -> "site" + r % sites)
                .timeout(Duration.ofSeconds(100)).run(rank -> exchange(rank, size));
    }

    /** Reduce-scatter of equal blocks, from a send buffer and in place, kept as the others (here alone). */
    @ParameterizedTest(name = "{0} ranks over {1} site(s)")
    @CsvSource({"1, 1", "2, 1", "3, 1", "5, 1", "6, 2"})
    void repeatedReduceScatterBlocksMoveEachCallsData(int size, int sites) throws Exception {
        InProcessWorld.of(size).with("methods", "tcp").perRank("site", r -> "site" + r % sites)
                .timeout(Duration.ofSeconds(100)).run(rank -> {
                    Intracomm world = MPI.COMM_WORLD;
                    int[] blocks = new int[2 * size];
                    int[] mine = new int[2];
                    int[] inPlace = new int[2 * size];
                    for (int call = 0; call < CALLS; call++) {
                        for (int i = 0; i < 2 * size; i++) {
                            blocks[i] = rank * i + call; // block r of rank q: q * (2r + k) + call
                            inPlace[i] = rank + i * call;
                        }
                        world.reduceScatterBlock(blocks, mine, 2, MPI.INT, MPI.SUM);
                        world.reduceScatterBlock(inPlace, 2, MPI.INT, MPI.SUM);
                        int ranksSum = size * (size - 1) / 2;
                        for (int k = 0; k < 2; k++) {
                            int i = 2 * rank + k;
                            assertEquals(ranksSum * i + size * call, mine[k], "reduce-scatter, call " + call);
                            assertEquals(ranksSum + size * i * call, inPlace[k], "in place, call " + call);
                        }
                    }
                });
    }

    @ParameterizedTest(name = "{0} ranks")
    @CsvSource({"1", "2"})
    void aKeptScheduleIsNotRunForADatatypeFreedSinceItWasKept(int size) throws Exception {
        InProcessWorld.of(size).with("methods", "tcp").run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            Datatype pair = MPI.INT.dup();
            int[] data = {rank, rank};
            world.bcast(data, 2, pair, 0);
            world.bcast(data, 2, pair, 0); // runs the kept schedule
            pair.free();
            MPIException e = assertThrows(MPIException.class, () -> world.bcast(data, 2, pair, 0));
            assertEquals(MPI.ERR_TYPE, e.getErrorClass());
            world.barrier(); // the communicator goes on
        });
    }

    private static void exchange(int rank, int size) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int ranksSum = size * (size - 1) / 2;
        double[] in = new double[3];
        double[] out = new double[3];
        double[] otherIn = new double[3];
        double[] otherOut = new double[3];
        int[] max = new int[1];
        IntBuffer shared = MPI.newIntBuffer(2);
        DoubleBuffer directIn = MPI.newDoubleBuffer(3);
        DoubleBuffer directOut = MPI.newDoubleBuffer(3);
        int[] mine = new int[2];
        int[] gathered = new int[2 * size];
        int[] outgoing = new int[size];
        int[] incoming = new int[size];
        int[] piece = new int[1];
        int[] value = new int[1];
        int[] prefix = new int[1];
        for (int call = 0; call < CALLS; call++) {
            for (int k = 0; k < 3; k++) {
                in[k] = rank * 10 + call + k;
                otherIn[k] = rank - call * k;
            }
            world.allReduce(in, out, 3, MPI.DOUBLE, MPI.SUM);
            world.allReduce(otherIn, otherOut, 3, MPI.DOUBLE, MPI.SUM);
            for (int k = 0; k < 3; k++) {
                assertEquals(10.0 * ranksSum + size * (call + k), out[k], "allreduce, call " + call);
                assertEquals(ranksSum - (double) size * call * k, otherOut[k], "second allreduce, call " + call);
            }

            max[0] = rank + call;
            world.allReduce(max, 1, MPI.INT, MPI.MAX);
            assertEquals(size - 1 + call, max[0], "in-place allreduce, call " + call);

            int root = call % 2 == 0 ? 0 : size - 1; // two roots: two kept bcasts (and two reduces)
            shared.put(0, rank == root ? call * 7 + root : -1).put(1, rank == root ? -call : -1);
            world.bcast(shared, 2, MPI.INT, root);
            assertEquals(call * 7 + root, shared.get(0), "bcast from " + root + ", call " + call);
            assertEquals(-call, shared.get(1), "bcast from " + root + ", call " + call);

            int reduceRoot = size - 1 - root;
            Arrays.fill(otherOut, -1);
            world.reduce(in, otherOut, 3, MPI.DOUBLE, MPI.SUM, reduceRoot);
            if (rank == reduceRoot) {
                assertEquals(10.0 * ranksSum + size * call, otherOut[0], "reduce to " + reduceRoot + ", call " + call);
            }

            world.barrier();

            mine[0] = rank;
            mine[1] = call;
            Arrays.fill(gathered, -1);
            world.allGather(mine, 2, MPI.INT, gathered, 2, MPI.INT);
            Arrays.fill(incoming, -1);
            for (int peer = 0; peer < size; peer++) {
                outgoing[peer] = rank * 1000 + peer + call;
            }
            world.allToAll(outgoing, 1, MPI.INT, incoming, 1, MPI.INT);
            for (int peer = 0; peer < size; peer++) {
                assertEquals(peer, gathered[2 * peer], "allgather, call " + call);
                assertEquals(call, gathered[2 * peer + 1], "allgather, call " + call);
                assertEquals(peer * 1000 + rank + call, incoming[peer], "alltoall, call " + call);
            }

            Arrays.fill(gathered, -1);
            world.gather(mine, 2, MPI.INT, gathered, 2, MPI.INT, root); // two roots: two kept gathers
            if (rank == root) {
                for (int peer = 0; peer < size; peer++) {
                    assertEquals(peer, gathered[2 * peer], "gather to " + root + ", call " + call);
                    assertEquals(call, gathered[2 * peer + 1], "gather to " + root + ", call " + call);
                }
            }
            for (int peer = 0; peer < size; peer++) {
                outgoing[peer] = rank == 0 ? peer * 31 + call : -1;
            }
            piece[0] = -1;
            world.scatter(outgoing, 1, MPI.INT, piece, 1, MPI.INT, 0);
            assertEquals(rank * 31 + call, piece[0], "scatter, call " + call);

            value[0] = rank + call;
            world.scan(value, prefix, 1, MPI.INT, MPI.SUM);
            assertEquals(rank * (rank + 1) / 2 + (rank + 1) * call, prefix[0], "scan, call " + call);
            world.exScan(value, prefix, 1, MPI.INT, MPI.SUM);
            if (rank > 0) {
                assertEquals(rank * (rank - 1) / 2 + rank * call, prefix[0], "exscan, call " + call);
            }
            value[0] = rank + call;
            world.scan(value, 1, MPI.INT, MPI.SUM); // in place
            assertEquals(rank * (rank + 1) / 2 + (rank + 1) * call, value[0], "in-place scan, call " + call);

            if (call % 10 == 0) { // a nonblocking collective on the same buffers, between the kept ones
                directIn.put(0, rank + call).put(1, 1).put(2, call);
                Request request = world.iAllReduce(directIn, directOut, 3, MPI.DOUBLE, MPI.SUM);
                request.waitFor();
                assertEquals(ranksSum + (double) size * call, directOut.get(0), "iallreduce, call " + call);
                assertEquals(size, directOut.get(1), "iallreduce, call " + call);
            }
        }
    }
}
