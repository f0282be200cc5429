package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.IntBuffer;
import java.time.Duration;
import java.util.Arrays;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.InProcessWorld;

/**
 * Bad input on the newest collective paths: the two-level collectives of a communicator spanning sites
 * ({@code coll.level}; here 4 ranks in 2 sites of 2 on one host, so each site's part goes through its segment) and
 * the reductions through the segment, over a slot in chunks ({@code ChunkedReductions}; 3 ranks on one host).
 * Every case ends in an {@code MPIException} with the right error class at the rank whose argument was bad (or at
 * every rank, where all were), the others complete with the right result, and the correct calls after it work.
 */
@Timeout(120)
class TwoLevelAndChunkedBadInputTest {
    private static final int RANKS = 4;
    /** Over a slot (64 KiB): a reduction in chunks. */
    private static final int LARGE = 40_000;

    private static InProcessWorld twoSites() {
        return InProcessWorld.of(RANKS).perRank("site", r -> "s" + r / 2).timeout(Duration.ofSeconds(90));
    }

    /**
     * A reduce whose datatype reaches below its buffer's start (a vector of negative stride over a slice): at a
     * leader that is not the root, the site's partial result goes into scratch laid out as the user's buffer.
     */
    @Test
    void aTwoLevelReduceWithANegativeLowerBoundAtALeaderThatIsNotTheRoot() throws Exception {
        twoSites().run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN); // an error fails the rank, not this JVM
            // one int a whole int below each item's start: the type's lower bound is negative
            Datatype below = Datatype.createIndexed(new int[] {1}, new int[] {-1}, MPI.INT);
            below.commit();
            for (int root : new int[] {0, 1, 3}) { // rank 2 (root 0, 1) or 0 (root 3) leads without being root
                for (int count : new int[] {1, 5, LARGE}) {
                    int start = 3;
                    int[] in = new int[start + count + 2];
                    int[] out = new int[in.length];
                    int[] expected = new int[in.length];
                    Arrays.fill(in, 1000); // around the items: not sent
                    Arrays.fill(out, -1);
                    Arrays.fill(expected, -1);
                    for (int k = 0; k < count; k++) {
                        in[start + k - 1] = rank * 10 + k;
                        expected[start + k - 1] = RANKS * (RANKS - 1) / 2 * 10 + RANKS * k;
                    }
                    MPI.COMM_WORLD.reduce(MPI.slice(in, start), MPI.slice(out, start), count, below, MPI.SUM, root);
                    if (rank == root) {
                        assertArrayEquals(expected, out, "reduce of " + count + " to " + root);
                    }
                }
            }
            below.free();
            checkCorrectCallsGoOn(MPI.COMM_WORLD, rank);
        });
    }

    /**
     * A receive buffer that is read-only or too short at one rank of a two-level bcast, allreduce or reduce: that
     * rank gets {@code ERR_BUFFER}; where it leads its site it still passes the data on (through a stand-in), so the
     * others get theirs, and every internal communicator's calls stay in step for the calls after.
     */
    @Test
    void aBadReceiveBufferAtOneRankOfATwoLevelCallFailsThereAndTheOthersGetTheirData() throws Exception {
        twoSites().run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            world.barrier(); // the levels are made
            for (int count : new int[] {4, LARGE}) {
                // bcast from a rank that does not lead its site; the other site's leader cannot receive
                bcastWithBadBufferAt(world, rank, count, 1, 2, readOnly(count));
                // bcast from the other site; the root's site's leader (not the root) has too short a buffer
                bcastWithBadBufferAt(world, rank, count, 3, 0, MPI.newIntBuffer(count / 2));
                // and a rank that leads nothing
                bcastWithBadBufferAt(world, rank, count, 0, 3, readOnly(count));
                for (int bad = 0; bad < RANKS; bad++) {
                    allReduceWithBadBufferAt(world, rank, count, bad, false);
                    allReduceWithBadBufferAt(world, rank, count, bad, true);
                    reduceWithBadBufferAt(world, rank, count, bad);
                }
            }
            checkCorrectCallsGoOn(world, rank);
        });
    }

    private static void bcastWithBadBufferAt(Intracomm comm, int rank, int count, int root, int bad,
                                             IntBuffer badBuffer) throws MPIException {
        IntBuffer buf = rank == bad ? badBuffer : MPI.newIntBuffer(count);
        if (rank == root) {
            for (int i = 0; i < count; i++) {
                buf.put(i, 7 * i + root);
            }
        }
        if (rank == bad) {
            assertError(MPI.ERR_BUFFER, () -> comm.bcast(buf, count, MPI.INT, root));
            return;
        }
        comm.bcast(buf, count, MPI.INT, root);
        for (int i = 0; i < count; i += 997) {
            assertEquals(7 * i + root, buf.get(i), "bcast of " + count + " from " + root + ", item " + i);
        }
    }

    private static void allReduceWithBadBufferAt(Intracomm comm, int rank, int count, int bad, boolean inPlace)
            throws MPIException {
        IntBuffer in = MPI.newIntBuffer(count);
        for (int i = 0; i < count; i++) {
            in.put(i, rank + i);
        }
        IntBuffer out = MPI.newIntBuffer(count);
        if (rank == bad) {
            IntBuffer readOnly = (inPlace ? in : out).asReadOnlyBuffer();
            assertError(MPI.ERR_BUFFER, () -> {
                if (inPlace) {
                    comm.allReduce(readOnly, count, MPI.INT, MPI.SUM);
                } else {
                    comm.allReduce(in, readOnly, count, MPI.INT, MPI.SUM);
                }
            });
            return;
        }
        if (inPlace) {
            comm.allReduce(in, count, MPI.INT, MPI.SUM);
        } else {
            comm.allReduce(in, out, count, MPI.INT, MPI.SUM);
        }
        IntBuffer result = inPlace ? in : out;
        int n = comm.getSize();
        for (int i = 0; i < count; i += 997) {
            assertEquals(n * (n - 1) / 2 + n * i, result.get(i), "allreduce of " + count + " with a bad buffer at "
                    + bad + (inPlace ? " in place" : "") + ", item " + i);
        }
    }

    /** A reduce to {@code bad}, whose receive buffer is read-only. */
    private static void reduceWithBadBufferAt(Intracomm comm, int rank, int count, int bad) throws MPIException {
        IntBuffer in = MPI.newIntBuffer(count);
        for (int i = 0; i < count; i++) {
            in.put(i, rank + i);
        }
        if (rank == bad) {
            assertError(MPI.ERR_BUFFER, () -> comm.reduce(in, readOnly(count), count, MPI.INT, MPI.SUM, bad));
        } else {
            comm.reduce(in, MPI.newIntBuffer(count), count, MPI.INT, MPI.SUM, bad);
        }
    }

    /**
     * On one host (the segment, in one operation and over a slot in chunks): a read-only receive buffer at one rank of
     * an allreduce, a reduce or a reduce_scatter_block fails there with {@code ERR_BUFFER} while the others get the
     * right result (they combined its stale slot before: a wrong result, or zeros); errors every
     * rank makes alike (a negative count, an operation the type does not take, a root out of range, a freed
     * datatype) fail everywhere; the correct calls after all that work.
     */
    @Test
    void badInputToChunkedReductionsFailsWithItsClassAndTheCallsAfterWork() throws Exception {
        InProcessWorld.of(3).timeout(Duration.ofSeconds(90)).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            world.barrier(); // the segment is made
            for (int count : new int[] {3, LARGE}) { // in one operation, and in chunks
                for (int bad = 0; bad < 3; bad++) {
                    allReduceWithBadBufferAt(world, rank, count, bad, false);
                    allReduceWithBadBufferAt(world, rank, count, bad, true);
                    reduceWithBadBufferAt(world, rank, count, bad);
                    reduceScatterBlockWithBadBufferAt(world, rank, count, bad);
                }
            }
            errorsEveryRankMakes(world);
            checkCorrectCallsGoOn(world, rank);
        });
    }

    private static void reduceScatterBlockWithBadBufferAt(Intracomm comm, int rank, int count, int bad)
            throws MPIException {
        int n = comm.getSize();
        IntBuffer blocks = MPI.newIntBuffer(n * count);
        for (int i = 0; i < n * count; i++) {
            blocks.put(i, rank + i);
        }
        if (rank == bad) {
            assertError(MPI.ERR_BUFFER, () -> comm.reduceScatterBlock(blocks, readOnly(count), count, MPI.INT,
                    MPI.SUM));
            return;
        }
        IntBuffer mine = MPI.newIntBuffer(count);
        comm.reduceScatterBlock(blocks, mine, count, MPI.INT, MPI.SUM);
        int i = count - 1;
        assertEquals(n * (n - 1) / 2 + n * (rank * count + i), mine.get(i), "reduce_scatter_block of " + count
                + " with a bad buffer at " + bad);
    }

    /** The same errors on the two-level path, then the correct calls. */
    @Test
    void errorsEveryRankMakesOnTheTwoLevelPathFailWithTheirClassAndTheCallsAfterWork() throws Exception {
        twoSites().run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            MPI.COMM_WORLD.barrier();
            errorsEveryRankMakes(MPI.COMM_WORLD);
            checkCorrectCallsGoOn(MPI.COMM_WORLD, MPI.COMM_WORLD.getRank());
        });
    }

    private static void errorsEveryRankMakes(Intracomm comm) throws MPIException {
        for (int count : new int[] {4, LARGE}) {
            int[] in = new int[count];
            int[] out = new int[count];
            assertError(MPI.ERR_COUNT, () -> comm.allReduce(in, out, -count, MPI.INT, MPI.SUM));
            assertError(MPI.ERR_COUNT, () -> comm.reduce(in, out, -1, MPI.INT, MPI.SUM, 0));
            assertError(MPI.ERR_COUNT, () -> comm.bcast(in, -1, MPI.INT, 0));
            assertError(MPI.ERR_OP, () -> comm.allReduce(in, out, count, MPI.INT, MPI.MAXLOC));
            assertError(MPI.ERR_OP, () -> comm.reduce(in, out, count, MPI.INT, MPI.MINLOC, 1));
            assertError(MPI.ERR_ROOT, () -> comm.reduce(in, out, count, MPI.INT, MPI.SUM, comm.getSize()));
            assertError(MPI.ERR_ROOT, () -> comm.bcast(in, count, MPI.INT, -1));
            Datatype freed = Datatype.createContiguous(2, MPI.INT);
            freed.commit();
            freed.free();
            assertError(MPI.ERR_TYPE, () -> comm.allReduce(in, out, count / 2, freed, MPI.SUM));
            assertError(MPI.ERR_TYPE, () -> comm.bcast(in, count / 2, freed, 0));
            assertError(MPI.ERR_BUFFER, () -> comm.allReduce(in, new int[count / 2], count, MPI.INT, MPI.SUM));
            Datatype everyOther = Datatype.createResized(MPI.INT, 0, 8); // staged: packed, then unpacked
            everyOther.commit();
            IntBuffer readOnly = readOnly(2 * count);
            assertError(MPI.ERR_BUFFER, () -> comm.allReduce(MPI.newIntBuffer(2 * count), readOnly, count,
                    everyOther, MPI.SUM));
            int root = comm.getSize() - 1; // the others' receive buffers do not matter
            if (comm.getRank() == root) {
                assertError(MPI.ERR_BUFFER, () -> comm.reduce(MPI.newIntBuffer(2 * count), readOnly, count,
                        everyOther, MPI.SUM, root));
            } else {
                comm.reduce(MPI.newIntBuffer(2 * count), readOnly, count, everyOther, MPI.SUM, root);
            }
            everyOther.free();
        }
    }

    /** A freed communicator that ran two-level and chunked calls: {@code ERR_COMM}, and its parent goes on. */
    @Test
    void aFreedCommunicatorFailsWithErrCommAndItsParentGoesOn() throws Exception {
        twoSites().run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            for (int round = 0; round < 3; round++) {
                Intracomm comm = (Intracomm) world.dup();
                checkCorrectCallsGoOn(comm, rank);
                comm.free();
                int[] data = new int[4];
                assertError(MPI.ERR_COMM, () -> comm.allReduce(data, 4, MPI.INT, MPI.SUM));
                assertError(MPI.ERR_COMM, () -> comm.bcast(data, 4, MPI.INT, 0));
                assertError(MPI.ERR_COMM, comm::barrier);
            }
            checkCorrectCallsGoOn(world, rank);
        });
    }

    /** The correct calls after: an allreduce, a bcast, a reduce and a barrier, small and over a slot. */
    private static void checkCorrectCallsGoOn(Intracomm comm, int rank) throws MPIException {
        int n = comm.getSize();
        for (int count : new int[] {3, LARGE}) {
            for (int i = 0; i < 20; i++) {
                int[] sum = new int[count];
                Arrays.fill(sum, rank + i);
                comm.allReduce(sum, count, MPI.INT, MPI.SUM);
                assertEquals(n * (n - 1) / 2 + n * i, sum[count - 1], "allreduce " + i + " of " + count);
                int[] data = new int[count];
                Arrays.fill(data, rank == i % n ? i : -1);
                comm.bcast(data, count, MPI.INT, i % n);
                assertEquals(i, data[count - 1], "bcast " + i + " of " + count);
                int[] got = new int[count];
                comm.reduce(sum, got, count, MPI.INT, MPI.MAX, (i + 1) % n);
                if (rank == (i + 1) % n) {
                    assertEquals(sum[0], got[0], "reduce " + i + " of " + count);
                }
                comm.barrier();
            }
        }
    }

    private interface Call {
        void run() throws MPIException;
    }

    private static void assertError(int errorClass, Call call) {
        assertEquals(errorClass, assertThrows(MPIException.class, call::run).getErrorClass());
    }

    private static IntBuffer readOnly(int n) {
        return MPI.newIntBuffer(n).asReadOnlyBuffer();
    }
}
