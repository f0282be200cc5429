package mpi;

/** What {@link GraphComm#getDims()} returns ({@code MPI_Graph_get}): MPI's index and edges arrays. */
public final class GraphParms {
    private final int[] index;
    private final int[] edges;

    GraphParms(int[] index, int[] edges) {
        this.index = index;
        this.edges = edges;
    }

    /** Number of nodes. */
    public int getIndexCount() {
        return index.length;
    }

    /** Cumulative neighbour count of nodes 0..i. */
    public int getIndex(int i) {
        return index[i];
    }

    /** Number of edge entries. */
    public int getEdgeCount() {
        return edges.length;
    }

    /** Edge entry {@code i}. */
    public int getEdge(int i) {
        return edges[i];
    }
}
