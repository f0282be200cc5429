package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.adi.Ranks;
import org.weft.core.MpiRuntime;
import org.weft.core.RuntimeBinding;
import org.weft.core.coll.Collectives;
import org.weft.core.coll.NeighborCollectives;
import org.weft.core.coll.Reduction;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.Intracomms;
import org.weft.core.comm.ProcessGroup;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.topo.Topology;
import org.weft.tests.harness.InProcessWorld;

/**
 * Neighbour collectives over hand-made topologies and intercommunicator collectives over two halves of the
 * world, on core communicators built directly (the {@code mpi} constructors for Cartesian, graph and
 * intercommunicators come with communicator creation): a periodic ring as a Cartesian topology, where the block
 * sent to the −1 neighbour lands in its +1 slot even when both neighbours are one process (sizes 1 and 2); an
 * open chain as a graph with {@code PROC_NULL} ends; and bcast, allreduce, barrier, gather and alltoall between
 * the even and the odd ranks.
 */
@Timeout(60)
class NeighborAndIntercommCollectivesTest {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final int ROOT = -4; // MPI.ROOT

    private record HandMade(int[] sources, int[] destinations, boolean isCartesian) implements Topology {
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void neighbourAlltoallOnAPeriodicRingAndAnOpenChain(int size) throws Exception {
        InProcessWorld.of(size).timeout(Duration.ofSeconds(50)).run(rank -> {
            MpiRuntime runtime = RuntimeBinding.runtime();
            int left = (rank - 1 + size) % size;
            int right = (rank + 1) % size;
            int[] ring = {left, right};
            Communicator cart = communicator(runtime, new HandMade(ring, ring, true));
            int[] send = {code(rank, 0), code(rank, 1)};
            int[] recv = {-1, -1};
            NeighborCollectives.allToAll(cart, send, 1, INT, recv, 1, INT).run();
            // slot 0 (from the −1 neighbour) holds what that neighbour sent to its +1 side, and vice versa
            assertArrayEquals(new int[] {code(left, 1), code(right, 0)}, recv, "Cartesian neighbour alltoall");

            int[] chain = {rank == 0 ? Ranks.PROC_NULL : rank - 1, rank == size - 1 ? Ranks.PROC_NULL : rank + 1};
            Communicator graph = communicator(runtime, new HandMade(chain, chain, false));
            int[] gathered = {-1, -1};
            Schedule nonblocking = NeighborCollectives.allGather(graph, new int[] {code(rank, 7)}, 1, INT,
                    gathered, 1, INT).start();
            runtime.device().await(nonblocking);
            nonblocking.throwIfFailed();
            assertArrayEquals(new int[] {rank == 0 ? -1 : code(rank - 1, 7), rank == size - 1 ? -1
                    : code(rank + 1, 7)}, gathered, "graph neighbour allgather, PROC_NULL slots untouched");
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 5})
    void intercommunicatorCollectivesGoFromOneGroupToTheOther(int size) throws Exception {
        InProcessWorld.of(size).timeout(Duration.ofSeconds(50)).run(rank -> {
            MpiRuntime runtime = RuntimeBinding.runtime();
            ProcessGroup evens = ProcessGroup.of(IntStream.range(0, size).filter(r -> r % 2 == 0).toArray());
            ProcessGroup odds = ProcessGroup.of(IntStream.range(0, size).filter(r -> r % 2 == 1).toArray());
            boolean even = rank % 2 == 0;
            int context = Intracomms.dup(runtime.world()).context(); // a context every rank agreed on
            Communicator inter = new Communicator(runtime, even ? evens : odds, even ? odds : evens, context,
                    "evens-odds", false, null);
            int local = inter.rank();
            int remoteSize = inter.remoteGroup().size();

            // bcast from the last even rank to the odd group
            int evenRoot = evens.size() - 1;
            int[] data = even && local == evenRoot ? new int[] {42, 43} : new int[2];
            int root = even ? (local == evenRoot ? ROOT : Ranks.PROC_NULL) : evenRoot;
            Collectives.bcast(inter, data, 2, INT, root).run();
            if (!even) {
                assertArrayEquals(new int[] {42, 43}, data, "intercomm bcast reaches the remote group");
            }

            // allreduce: each group gets the sum over the other group
            int[] sum = new int[1];
            Collectives.allReduce(inter, new int[] {rank}, sum, 1, INT,
                    new Reduction(PredefinedOp.SUM.bind(INT), true)).run();
            int expected = IntStream.range(0, size).filter(r -> r % 2 != rank % 2).sum();
            assertEquals(expected, sum[0], "intercomm allreduce gives the remote group's sum");

            Collectives.barrier(inter).run();

            // gather to odd rank 0 from every even rank
            int[] gathered = new int[remoteSize];
            int gatherRoot = even ? 0 : (local == 0 ? ROOT : Ranks.PROC_NULL);
            Collectives.gather(inter, new int[] {code(rank, 3)}, 1, INT, gathered, 1, INT, gatherRoot).run();
            if (!even && local == 0) {
                assertArrayEquals(IntStream.range(0, size).filter(r -> r % 2 == 0).map(r -> code(r, 3)).toArray(),
                        gathered, "intercomm gather collects the remote group");
            }

            // alltoall: block j goes to remote rank j
            int[] out = IntStream.range(0, remoteSize).map(j -> code(rank, j)).toArray();
            int[] in = new int[remoteSize];
            Collectives.allToAll(inter, out, 1, INT, in, 1, INT).run();
            int[] remoteWorld = IntStream.range(0, remoteSize).map(inter::toWorld).toArray();
            assertArrayEquals(IntStream.of(remoteWorld).map(w -> code(w, local)).toArray(), in,
                    "intercomm alltoall");
        });
    }

    private static Communicator communicator(MpiRuntime runtime, Topology topology) {
        return Intracomms.split(runtime.world(), 0, runtime.device().rank(), rank -> topology);
    }

    private static int code(int rank, int slot) {
        return rank * 100 + slot;
    }
}
