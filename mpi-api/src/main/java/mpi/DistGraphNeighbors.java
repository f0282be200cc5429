package mpi;

import org.weft.core.topo.DistGraphTopology;

/** What {@link GraphComm#getDistGraphNeighbors()} returns ({@code MPI_Dist_graph_neighbors}). */
public final class DistGraphNeighbors {
    private final DistGraphTopology graph;

    DistGraphNeighbors(DistGraphTopology graph) {
        this.graph = graph;
    }

    /** Number of edges into this process. */
    public int getInDegree() {
        return graph.sourceRanks().length;
    }

    /** Number of edges out of this process. */
    public int getOutDegree() {
        return graph.destinationRanks().length;
    }

    /** False for a graph created with {@code MPI_UNWEIGHTED} (no weights given). */
    public boolean isWeighted() {
        return graph.weighted();
    }

    /** Rank of the {@code i}-th source. */
    public int getSource(int i) {
        return graph.sourceRanks()[i];
    }

    /** Weight of the edge from the {@code i}-th source (1 when unweighted). */
    public int getSourceWeight(int i) {
        return graph.weighted() ? graph.sourceWeights()[i] : 1;
    }

    /** Rank of the {@code i}-th destination. */
    public int getDestination(int i) {
        return graph.destinationRanks()[i];
    }

    /** Weight of the edge to the {@code i}-th destination (1 when unweighted). */
    public int getDestinationWeight(int i) {
        return graph.weighted() ? graph.destinationWeights()[i] : 1;
    }
}
