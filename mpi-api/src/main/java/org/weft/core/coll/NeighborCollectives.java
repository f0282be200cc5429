package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.core.coll.algo.NeighborExchange;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;
import org.weft.core.topo.Topology;

/**
 * The neighbour collectives over a communicator's virtual topology: receive one block from each source and send
 * one block to each destination ({@link NeighborExchange}), in MPI's neighbour order. {@code ERR_TOPOLOGY}
 * without a topology. Displacements count items of the type, except in the {@code w} form (bytes).
 */
public final class NeighborCollectives {
    private NeighborCollectives() {
    }

    /** {@code MPI_Neighbor_allgather}: the same block to every destination. */
    public static Schedule allGather(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                     Object recvbuf, int recvcount, TypeDescriptor recvtype) {
        Topology t = topology(comm);
        int sources = t.sources().length;
        return allGatherv(comm, sendbuf, sendcount, sendtype, recvbuf, CollectiveCall.repeated(recvcount, sources),
                null, recvtype);
    }

    /** {@code MPI_Neighbor_allgatherv}; {@code displs == null}: blocks side by side. */
    public static Schedule allGatherv(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                      Object recvbuf, int[] recvcounts, int[] displs, TypeDescriptor recvtype) {
        Topology t = topology(comm);
        CollectiveCall call = new CollectiveCall(comm);
        MemorySegment mine = call.in(sendbuf, sendcount, sendtype);
        MemorySegment[] out = new MemorySegment[t.destinations().length];
        java.util.Arrays.fill(out, mine);
        MemorySegment[] in = Collectives.rootBlocks(call, recvbuf, recvcounts, displs, recvtype,
                t.sources().length, true);
        return exchange(call, t, in, out);
    }

    /** {@code MPI_Neighbor_alltoall}. */
    public static Schedule allToAll(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                    Object recvbuf, int recvcount, TypeDescriptor recvtype) {
        Topology t = topology(comm);
        return allToAllv(comm, sendbuf, CollectiveCall.repeated(sendcount, t.destinations().length), null,
                sendtype, recvbuf, CollectiveCall.repeated(recvcount, t.sources().length), null, recvtype);
    }

    /** {@code MPI_Neighbor_alltoallv}; {@code null} displacements: blocks side by side. */
    public static Schedule allToAllv(Communicator comm, Object sendbuf, int[] sendcounts, int[] sdispls,
                                     TypeDescriptor sendtype, Object recvbuf, int[] recvcounts, int[] rdispls,
                                     TypeDescriptor recvtype) {
        Topology t = topology(comm);
        CollectiveCall call = new CollectiveCall(comm);
        MemorySegment[] out = Collectives.rootBlocks(call, sendbuf, sendcounts, sdispls, sendtype,
                t.destinations().length, false);
        MemorySegment[] in = Collectives.rootBlocks(call, recvbuf, recvcounts, rdispls, recvtype,
                t.sources().length, true);
        return exchange(call, t, in, out);
    }

    private static Schedule exchange(CollectiveCall call, Topology t, MemorySegment[] in, MemorySegment[] out) {
        Communicator comm = call.comm();
        NeighborExchange.append(call.plan(), world(comm, t.sources()), in, world(comm, t.destinations()), out,
                t.isCartesian());
        return call.schedule();
    }

    private static int[] world(Communicator comm, int[] ranks) {
        int[] world = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            world[i] = comm.toWorld(ranks[i]); // PROC_NULL passes through
        }
        return world;
    }

    private static Topology topology(Communicator comm) {
        Topology t = comm.topology();
        if (t == null) {
            throw MpiErrors.error(ErrorClass.ERR_TOPOLOGY, "the communicator " + comm.name()
                    + " has no virtual topology (neighbour collectives need one)");
        }
        return t;
    }
}
