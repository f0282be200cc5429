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

    /**
     * True for a Cartesian topology: there the block sent to the −1 neighbour of a dimension lands in that
     * neighbour's +1 slot and vice versa, also when one process is both neighbours (periodic dimension of size 1
     * or 2), so neighbour collectives match messages by direction, not by order.
     */
    default boolean isCartesian() {
        return false;
    }
}
