package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.IntBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.harness.InProcessWorld;

/**
 * Every blocking collective of the {@code mpi} API, with and without {@code MPI_IN_PLACE}, at 1..5 and 8 ranks,
 * on the default methods and on TCP only: counts 0, 1 and 5 (and 100 000 ints at 4 and 5 ranks, past the
 * rendezvous threshold, for the algorithms chosen for long messages), every root, irregular counts and
 * displacements with gaps that must stay untouched, sums and a non-commutative user operation.
 */
@Timeout(120)
class EveryCollectiveTest {
    private static final int UNTOUCHED = -12345;

    static Stream<Arguments> worlds() {
        return Stream.of("default", "tcp").flatMap(methods -> IntStream.of(1, 2, 3, 4, 5, 8)
                .mapToObj(size -> Arguments.of(size, methods)));
    }

    @ParameterizedTest(name = "{0} ranks, methods {1}")
    @MethodSource("worlds")
    void everyCollectiveGivesMpiResults(int size, String methods) throws Exception {
        InProcessWorld world = InProcessWorld.of(size).timeout(Duration.ofSeconds(100));
        if (!methods.equals("default")) {
            world.with("methods", methods);
        }
        boolean large = (size == 4 || size == 5);
        world.run(rank -> {
            Intracomm comm = MPI.COMM_WORLD;
            comm.setErrhandler(MPI.ERRORS_RETURN);
            Checks c = new Checks(comm, rank, size);
            int[] counts = large && methods.equals("tcp") == (size == 4) ? new int[] {0, 1, 5, 100_000}
                    : new int[] {0, 1, 5};
            for (int count : counts) {
                for (int root = 0; root < size; root += count > 5 ? size : 1) {
                    c.gather(count, root);
                    c.gatherv(count, root);
                    c.scatter(count, root);
                    c.scatterv(count, root);
                }
                c.allGather(count);
                c.allGatherv(count);
                c.allToAll(count);
                c.allToAllv(count);
                c.allToAllw(count);
                c.reduceScatter(count);
                c.scan(count);
                c.barrier();
            }
        });
    }

    /** The checks of one rank. */
    private record Checks(Intracomm comm, int rank, int size) {
        void barrier() throws MPIException {
            comm.barrier();
        }

        void gather(int count, int root) throws MPIException {
            int[] recv = rank == root ? filled(size * count + 1) : null;
            comm.gather(values(rank, count), count, MPI.INT, recv, count, MPI.INT, root);
            if (rank == root) {
                assertArrayEquals(withTail(concat(count), size * count + 1), recv, "gather to " + root);
            }
            int[] inPlace = rank == root ? filled(size * count) : values(rank, count);
            if (rank == root) {
                System.arraycopy(values(root, count), 0, inPlace, root * count, count);
            }
            comm.gather(inPlace, count, MPI.INT, root);
            if (rank == root) {
                assertArrayEquals(concat(count), inPlace, "gather in place to " + root);
            }
        }

        void gatherv(int count, int root) throws MPIException {
            int[] counts = irregular(count);
            int[] displs = reversedWithGaps(counts);
            int[] recv = rank == root ? filled(extent(counts, displs) + 1) : null;
            comm.gatherv(values(rank, counts[rank]), counts[rank], MPI.INT, recv, counts, displs, MPI.INT, root);
            if (rank == root) {
                assertArrayEquals(placed(counts, displs, recv.length), recv, "gatherv to " + root);
            }
        }

        void scatter(int count, int root) throws MPIException {
            int[] send = rank == root ? concat(count) : null;
            int[] recv = filled(count + 1);
            comm.scatter(send, count, MPI.INT, recv, count, MPI.INT, root);
            assertArrayEquals(withTail(values(rank, count), count + 1), recv, "scatter from " + root);
            int[] inPlace = rank == root ? concat(count) : filled(count);
            comm.scatter(inPlace, count, MPI.INT, root);
            assertArrayEquals(rank == root ? concat(count) : values(rank, count), inPlace,
                    "scatter in place from " + root);
        }

        void scatterv(int count, int root) throws MPIException {
            int[] counts = irregular(count);
            int[] displs = reversedWithGaps(counts);
            int[] send = rank == root ? placed(counts, displs, extent(counts, displs)) : null;
            int[] recv = filled(counts[rank] + 1);
            comm.scatterv(send, counts, displs, MPI.INT, recv, counts[rank], MPI.INT, root);
            assertArrayEquals(withTail(values(rank, counts[rank]), counts[rank] + 1), recv,
                    "scatterv from " + root);
        }

        void allGather(int count) throws MPIException {
            int[] recv = filled(size * count + 1);
            comm.allGather(values(rank, count), count, MPI.INT, recv, count, MPI.INT);
            assertArrayEquals(withTail(concat(count), size * count + 1), recv, "allgather");
            int[] inPlace = filled(size * count);
            System.arraycopy(values(rank, count), 0, inPlace, rank * count, count);
            comm.allGather(inPlace, count, MPI.INT);
            assertArrayEquals(concat(count), inPlace, "allgather in place");
        }

        void allGatherv(int count) throws MPIException {
            int[] counts = irregular(count);
            int[] displs = reversedWithGaps(counts);
            int[] recv = filled(extent(counts, displs) + 1);
            comm.allGatherv(values(rank, counts[rank]), counts[rank], MPI.INT, recv, counts, displs, MPI.INT);
            assertArrayEquals(placed(counts, displs, recv.length), recv, "allgatherv");
            int[] inPlace = filled(extent(counts, displs));
            System.arraycopy(values(rank, counts[rank]), 0, inPlace, displs[rank], counts[rank]);
            comm.allGatherv(inPlace, counts, displs, MPI.INT);
            assertArrayEquals(placed(counts, displs, inPlace.length), inPlace, "allgatherv in place");
        }

        void allToAll(int count) throws MPIException {
            int[] send = new int[size * count];
            for (int j = 0; j < size; j++) {
                System.arraycopy(exchanged(rank, j, count), 0, send, j * count, count);
            }
            int[] recv = filled(size * count + 1);
            comm.allToAll(send, count, MPI.INT, recv, count, MPI.INT);
            int[] expected = filled(size * count + 1);
            for (int j = 0; j < size; j++) {
                System.arraycopy(exchanged(j, rank, count), 0, expected, j * count, count);
            }
            assertArrayEquals(expected, recv, "alltoall of " + count);
        }

        /** Rank a sends rank b {@code count + (a + 2b) % 3} items: every pair its own size. */
        private static int pairCount(int count, int from, int to) {
            return count + (from + 2 * to) % 3;
        }

        void allToAllv(int count) throws MPIException {
            int[] sendCounts = new int[size];
            int[] recvCounts = new int[size];
            for (int j = 0; j < size; j++) {
                sendCounts[j] = pairCount(count, rank, j);
                recvCounts[j] = pairCount(count, j, rank);
            }
            int[] sdispls = reversedWithGaps(sendCounts);
            int[] rdispls = reversedWithGaps(recvCounts);
            int[] send = new int[extent(sendCounts, sdispls)];
            for (int j = 0; j < size; j++) {
                System.arraycopy(exchanged(rank, j, sendCounts[j]), 0, send, sdispls[j], sendCounts[j]);
            }
            int[] recv = filled(extent(recvCounts, rdispls));
            comm.allToAllv(send, sendCounts, sdispls, MPI.INT, recv, recvCounts, rdispls, MPI.INT);
            int[] expected = filled(recv.length);
            for (int j = 0; j < size; j++) {
                System.arraycopy(exchanged(j, rank, recvCounts[j]), 0, expected, rdispls[j], recvCounts[j]);
            }
            assertArrayEquals(expected, recv, "alltoallv around " + count);
        }

        void allToAllw(int count) throws MPIException {
            int[] counts = new int[size];
            Arrays.fill(counts, count);
            int[] byteDispls = new int[size];
            for (int j = 0; j < size; j++) {
                byteDispls[j] = 4 * (size - 1 - j) * count; // blocks in reverse order
            }
            mpi.Datatype[] types = new mpi.Datatype[size];
            Arrays.fill(types, MPI.INT);
            IntBuffer send = MPI.newIntBuffer(Math.max(1, size * count));
            IntBuffer recv = MPI.newIntBuffer(Math.max(1, size * count));
            for (int j = 0; j < size; j++) {
                send.put((size - 1 - j) * count, exchanged(rank, j, count));
            }
            comm.allToAllw(send, counts, byteDispls, types, recv, counts, byteDispls, types);
            for (int j = 0; j < size; j++) {
                int[] got = new int[count];
                recv.get((size - 1 - j) * count, got);
                assertArrayEquals(exchanged(j, rank, count), got, "alltoallw block from " + j);
            }
        }

        void reduceScatter(int count) throws MPIException {
            int[] counts = new int[size];
            for (int r = 0; r < size; r++) {
                counts[r] = count + r % 2;
            }
            int total = Arrays.stream(counts).sum();
            int[] send = IntStream.range(0, total).map(g -> rank + g).toArray();
            int[] recv = filled(counts[rank] + 1);
            comm.reduceScatter(send, recv, counts, MPI.INT, MPI.SUM);
            int start = Arrays.stream(counts).limit(rank).sum();
            int[] expected = withTail(IntStream.range(start, start + counts[rank])
                    .map(g -> size * (size - 1) / 2 + size * g).toArray(), counts[rank] + 1);
            assertArrayEquals(expected, recv, "reduce_scatter");
            comm.reduceScatter(send, counts, MPI.INT, MPI.SUM);
            assertArrayEquals(Arrays.copyOf(expected, counts[rank]), Arrays.copyOf(send, counts[rank]),
                    "reduce_scatter in place");
            // non-commutative, block form: rank order must hold
            int even = count & ~1;
            Op affine = new Op(new AffineComposition(), false);
            int[] mine = AffineComposition.contribution(rank, size * even);
            int[] block = new int[even];
            comm.reduceScatterBlock(mine, block, even, MPI.INT, affine);
            assertArrayEquals(composedBlock(rank, even), block, "non-commutative reduce_scatter_block");
            comm.reduceScatterBlock(mine, even, MPI.INT, affine);
            assertArrayEquals(composedBlock(rank, even), Arrays.copyOf(mine, even), "... in place");
        }

        /** Block {@code b} of {@code contribution(0) ∘ ... ∘ contribution(size − 1)}. */
        private int[] composedBlock(int b, int even) {
            int[] acc = Arrays.copyOfRange(AffineComposition.contribution(size - 1, size * even), b * even,
                    (b + 1) * even);
            for (int r = size - 2; r >= 0; r--) {
                int[] v = Arrays.copyOfRange(AffineComposition.contribution(r, size * even), b * even,
                        (b + 1) * even);
                for (int i = 0; i + 1 < even; i += 2) {
                    AffineComposition.compose(v, acc, i);
                }
            }
            return acc;
        }

        void scan(int count) throws MPIException {
            int[] recv = new int[count];
            comm.scan(values(rank, count), recv, count, MPI.INT, MPI.SUM);
            assertArrayEquals(prefixSum(rank + 1, count), recv, "scan");
            int[] inPlace = values(rank, count);
            comm.exScan(inPlace, count, MPI.INT, MPI.SUM);
            if (rank > 0) {
                assertArrayEquals(prefixSum(rank, count), inPlace, "exscan in place");
            }
            int even = count & ~1;
            Op affine = new Op(new AffineComposition(), false);
            int[] composed = new int[even];
            comm.scan(AffineComposition.contribution(rank, even), composed, even, MPI.INT, affine);
            assertArrayEquals(AffineComposition.expected(rank + 1, even), composed, "non-commutative scan");
            comm.exScan(AffineComposition.contribution(rank, even), composed, even, MPI.INT, affine);
            if (rank > 0) {
                assertArrayEquals(AffineComposition.expected(rank, even), composed, "non-commutative exscan");
            }
        }

        private static int[] prefixSum(int ranks, int count) {
            int[] sum = new int[count];
            for (int r = 0; r < ranks; r++) {
                int[] v = values(r, count);
                for (int i = 0; i < count; i++) {
                    sum[i] += v[i];
                }
            }
            return sum;
        }

        /** Rank 0's block, then rank 1's, …: what a gather of {@code count} each gives. */
        private int[] concat(int count) {
            int[] all = new int[size * count];
            for (int r = 0; r < size; r++) {
                System.arraycopy(values(r, count), 0, all, r * count, count);
            }
            return all;
        }

        private int[] irregular(int count) {
            return IntStream.range(0, size).map(r -> count == 0 ? 0 : count + r).toArray();
        }

        /** Blocks in reverse rank order with a one-item gap before each. */
        private int[] reversedWithGaps(int[] counts) {
            int[] displs = new int[size];
            int at = 1;
            for (int r = size - 1; r >= 0; r--) {
                displs[r] = at;
                at += counts[r] + 1;
            }
            return displs;
        }

        private int[] placed(int[] counts, int[] displs, int length) {
            int[] all = filled(length);
            for (int r = 0; r < size; r++) {
                System.arraycopy(values(r, counts[r]), 0, all, displs[r], counts[r]);
            }
            return all;
        }

        private static int extent(int[] counts, int[] displs) {
            int end = 0;
            for (int r = 0; r < counts.length; r++) {
                end = Math.max(end, displs[r] + counts[r]);
            }
            return end;
        }
    }

    static int[] values(int rank, int count) {
        return IntStream.range(0, count).map(i -> rank * 100_003 + i * 7 + 1).toArray();
    }

    /** What rank {@code from} sends rank {@code to} in an all-to-all. */
    static int[] exchanged(int from, int to, int count) {
        return IntStream.range(0, count).map(i -> from * 1_000_003 + to * 1009 + i).toArray();
    }

    static int[] filled(int length) {
        int[] v = new int[length];
        Arrays.fill(v, UNTOUCHED);
        return v;
    }

    /** {@code v} followed by untouched items up to {@code length}. */
    static int[] withTail(int[] v, int length) {
        int[] all = filled(length);
        System.arraycopy(v, 0, all, 0, v.length);
        return all;
    }
}
