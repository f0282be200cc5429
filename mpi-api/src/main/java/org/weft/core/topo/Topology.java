package org.weft.core.topo;

/**
 * A virtual topology attached to a communicator (Cartesian, graph or distributed graph), as the neighbour
 * collectives see it: whom this rank receives from and sends to, in communicator ranks and in MPI's order
 * (Cartesian: for each dimension the {@code -1} then the {@code +1} neighbour, {@code PROC_NULL} at open edges).
 */
public interface Topology {
    /** Ranks this rank receives from in a neighbour collective, in order. */
    int[] sources();

    /** Ranks this rank sends to in a neighbour collective, in order. */
    int[] destinations();
}
