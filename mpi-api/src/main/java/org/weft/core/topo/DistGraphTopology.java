package org.weft.core.topo;

/**
 * A distributed graph ({@code MPI_Dist_graph_create[_adjacent]}): the ranks this rank receives from and sends to,
 * with weights ({@code null} for an unweighted graph). Immutable.
 *
 * @param sourceRanks      ranks of the incoming edges, in order
 * @param sourceWeights    their weights, or {@code null}
 * @param destinationRanks ranks of the outgoing edges, in order
 * @param destinationWeights their weights, or {@code null}
 */
public record DistGraphTopology(int[] sourceRanks, int[] sourceWeights, int[] destinationRanks,
                                int[] destinationWeights) implements Topology {
    public DistGraphTopology {
        sourceRanks = sourceRanks.clone();
        destinationRanks = destinationRanks.clone();
        sourceWeights = sourceWeights == null ? null : sourceWeights.clone();
        destinationWeights = destinationWeights == null ? null : destinationWeights.clone();
    }

    public boolean weighted() {
        return sourceWeights != null;
    }

    @Override
    public int[] sources() {
        return sourceRanks.clone();
    }

    @Override
    public int[] destinations() {
        return destinationRanks.clone();
    }
}
