package org.weft.core.topo;

import java.util.Arrays;
import java.util.stream.IntStream;

import org.weft.adi.ErrorClass;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.comm.Intracomms;
import org.weft.core.comm.ProcessGroup;
import org.weft.core.error.MpiErrors;

/**
 * Makes communicators with a virtual topology: {@code MPI_Cart_create}, {@code MPI_Cart_sub},
 * {@code MPI_Graph_create}, {@code MPI_Dist_graph_create} and {@code MPI_Dist_graph_create_adjacent}. Weft
 * never reorders ranks (MPI allows that): rank {@code i} of the result is rank {@code i} of the parent, and
 * parent ranks beyond the grid or graph get {@code null}.
 */
public final class TopologyComms {
    private TopologyComms() {
    }

    /** {@code MPI_Cart_create}. */
    public static Communicator cart(Communicator parent, int[] dims, boolean[] periods) {
        int points = CartesianTopology.checkedGridSize(dims, periods, parent.size());
        return Intracomms.create(parent, firstRanks(parent, points),
                rank -> new CartesianTopology(dims, periods, rank));
    }

    /** {@code MPI_Cart_sub}: the sub-grid of the kept dimensions that holds this rank. */
    public static Communicator cartSub(Communicator cart, boolean[] remain) {
        CartesianTopology grid = (CartesianTopology) cart.topology();
        return Intracomms.split(cart, grid.subgridColour(remain), cart.rank(),
                rank -> grid.subgrid(remain, rank));
    }

    /** {@code MPI_Graph_create}. */
    public static Communicator graph(Communicator parent, int[] index, int[] edges) {
        GraphTopology.check(index, edges, parent.size());
        return Intracomms.create(parent, firstRanks(parent, index.length),
                rank -> new GraphTopology(index, edges, rank));
    }

    /** {@code MPI_Dist_graph_create_adjacent}: each rank names its own sources and destinations. */
    public static Communicator distGraphAdjacent(Communicator parent, int[] sources, int[] sourceWeights,
                                                 int[] destinations, int[] destinationWeights) {
        checkRanks(parent, sources);
        checkRanks(parent, destinations);
        checkWeights(sources, sourceWeights);
        checkWeights(destinations, destinationWeights);
        DistGraphTopology topology = new DistGraphTopology(sources, sourceWeights, destinations,
                destinationWeights);
        return Intracomms.create(parent, parent.group(), rank -> topology);
    }

    /**
     * {@code MPI_Dist_graph_create}: each rank names some edges ({@code degrees[i]} edges from
     * {@code sources[i]}); every edge reaches both its ends. The edges are gathered on every rank; each keeps
     * those that touch it, in the order of the ranks that named them.
     */
    public static Communicator distGraph(Communicator parent, int[] sources, int[] degrees, int[] destinations,
                                         int[] weights) {
        if (sources == null || degrees == null || degrees.length < sources.length || destinations == null) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "sources, degrees and destinations must match");
        }
        int edges = IntStream.of(degrees).limit(sources.length).sum();
        checkRanks(parent, sources);
        checkRanks(parent, Arrays.copyOf(destinations, Math.min(edges, destinations.length)));
        if (destinations.length < edges || (weights != null && weights.length < edges)) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "fewer destinations or weights than the degrees add up to");
        }
        int[] counts = CreationCalls.allGather(parent, new int[] {edges});
        int before = IntStream.of(counts).limit(parent.rank()).sum();
        int[] mine = new int[3 * IntStream.of(counts).sum()];
        for (int i = 0, e = 0; i < sources.length; i++) {
            for (int k = 0; k < degrees[i]; k++, e++) {
                int slot = 3 * (before + e);
                mine[slot] = sources[i];
                mine[slot + 1] = destinations[e];
                mine[slot + 2] = weights == null ? 1 : weights[e];
            }
        }
        // Every rank fills only its own slots: a sum gathers them all.
        CreationCalls.sumAll(parent, mine);
        return Intracomms.create(parent, parent.group(), rank -> adjacency(mine, rank, weights != null));
    }

    private static DistGraphTopology adjacency(int[] edges, int rank, boolean weighted) {
        int[] in = IntStream.range(0, edges.length / 3).filter(e -> edges[3 * e + 1] == rank).toArray();
        int[] out = IntStream.range(0, edges.length / 3).filter(e -> edges[3 * e] == rank).toArray();
        return new DistGraphTopology(
                IntStream.of(in).map(e -> edges[3 * e]).toArray(),
                weighted ? IntStream.of(in).map(e -> edges[3 * e + 2]).toArray() : null,
                IntStream.of(out).map(e -> edges[3 * e + 1]).toArray(),
                weighted ? IntStream.of(out).map(e -> edges[3 * e + 2]).toArray() : null);
    }

    private static ProcessGroup firstRanks(Communicator parent, int count) {
        return parent.group().include(IntStream.range(0, count).toArray());
    }

    private static void checkRanks(Communicator parent, int[] ranks) {
        if (ranks == null) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "the ranks are null");
        }
        for (int r : ranks) {
            if (r < 0 || r >= parent.size()) {
                throw MpiErrors.error(ErrorClass.ERR_RANK, "rank " + r + " is not in " + parent
                        + " (size " + parent.size() + ")");
            }
        }
    }

    private static void checkWeights(int[] ranks, int[] weights) {
        if (weights != null && weights.length < ranks.length) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "fewer weights than neighbours");
        }
    }
}
