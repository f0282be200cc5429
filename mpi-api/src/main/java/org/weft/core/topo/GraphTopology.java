package org.weft.core.topo;

import java.util.Arrays;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * A general graph ({@code MPI_Graph_create}) in MPI's compressed form: {@code index[i]} is the total number of
 * neighbours of nodes 0..i, {@code edges} lists the neighbours of node 0, then of node 1, and so on. Immutable.
 */
public final class GraphTopology implements Topology {
    private final int[] index;
    private final int[] edges;
    private final int rank;

    /** The graph seen from rank {@code rank}; use {@link #check} first. */
    public GraphTopology(int[] index, int[] edges, int rank) {
        this.index = index.clone();
        this.edges = edges.clone();
        this.rank = rank;
    }

    /**
     * Checks {@code MPI_Graph_create}'s arguments on a communicator of {@code size}: {@code ERR_ARG} for more
     * nodes than processes, a decreasing index, or an edge to a node that does not exist.
     */
    public static void check(int[] index, int[] edges, int size) {
        if (index == null || edges == null || index.length > size) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "a graph needs index and edges, and at most " + size
                    + " nodes");
        }
        int previous = 0;
        for (int end : index) {
            if (end < previous || end > edges.length) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "index " + Arrays.toString(index)
                        + " must not decrease and must end within the " + edges.length + " edges");
            }
            previous = end;
        }
        for (int e : edges) {
            if (e < 0 || e >= index.length) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "edge to node " + e + " of a graph of " + index.length);
            }
        }
    }

    public int nodeCount() {
        return index.length;
    }

    public int[] index() {
        return index.clone();
    }

    public int[] edges() {
        return edges.clone();
    }

    /** {@code MPI_Graph_neighbors}: {@code ERR_RANK} if {@code node} is not a node. */
    public int[] neighbours(int node) {
        if (node < 0 || node >= index.length) {
            throw MpiErrors.error(ErrorClass.ERR_RANK, "rank " + node + " is not a node of a graph of "
                    + index.length);
        }
        int from = node == 0 ? 0 : index[node - 1];
        return Arrays.copyOfRange(edges, from, index[node]);
    }

    /** This rank's neighbours, in the order of {@code edges}. */
    @Override
    public int[] sources() {
        return neighbours(rank);
    }

    /** The same as {@link #sources()}: a graph's edges are used both ways. */
    @Override
    public int[] destinations() {
        return neighbours(rank);
    }
}
