package mpi;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.comm.Communicator;
import org.weft.core.error.MpiErrors;
import org.weft.core.topo.DistGraphTopology;
import org.weft.core.topo.GraphTopology;

/**
 * A communicator with a graph or distributed-graph topology. Graph queries on a distributed graph, and the
 * reverse, are {@code ERR_TOPOLOGY}.
 */
public final class GraphComm extends Intracomm {
    GraphComm(Communicator communicator) {
        super(communicator);
    }

    /** A null graph communicator, for ranks left out of a graph. */
    static GraphComm nullComm() {
        return new GraphComm(null);
    }

    /** {@code MPI_Comm_dup}, errors unchecked. */
    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    /** {@code MPI_Comm_dup}: the duplicate has the same graph. */
    @Override
    public GraphComm dup() throws MPIException {
        return (GraphComm) super.dup();
    }

    /** {@code MPI_Comm_idup}: completes at once. */
    @Override
    public GraphComm iDup() throws MPIException {
        return (GraphComm) super.iDup();
    }

    /** {@code MPI_Comm_dup_with_info}. */
    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        return (GraphComm) super.dupWithInfo(info);
    }

    private <T> T topology(String call, Class<T> kind) throws MPIException {
        Communicator c = core();
        if (!kind.isInstance(c.topology())) {
            throw Errors.raise(c, call, MpiErrors.error(ErrorClass.ERR_TOPOLOGY, c + " has no "
                    + (kind == GraphTopology.class ? "graph" : "distributed graph") + " topology"));
        }
        return kind.cast(c.topology());
    }

    /** {@code MPI_Graph_get}: the index and edges arrays. */
    public GraphParms getDims() throws MPIException {
        GraphTopology graph = topology("MPI_Graph_get", GraphTopology.class);
        return new GraphParms(graph.index(), graph.edges());
    }

    /** {@code MPI_Graph_neighbors}: {@code ERR_RANK} for a rank that is not a node. */
    public int[] getNeighbors(int rank) throws MPIException {
        GraphTopology graph = topology("MPI_Graph_neighbors", GraphTopology.class);
        try {
            return graph.neighbours(rank);
        } catch (DeviceException e) {
            throw Errors.raise(core(), "MPI_Graph_neighbors", e);
        }
    }

    /** {@code MPI_Dist_graph_neighbors} with {@code MPI_Dist_graph_neighbors_count}. */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        return new DistGraphNeighbors(topology("MPI_Dist_graph_neighbors", DistGraphTopology.class));
    }

    /** {@code MPI_Graph_map}: Weft does not reorder, so this rank if it is a node, else {@code UNDEFINED}. */
    public int map(int[] index, int[] edges) throws MPIException {
        Communicator c = core();
        try {
            GraphTopology.check(index, edges, c.size());
            return c.rank() < index.length ? c.rank() : MPI.UNDEFINED;
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Graph_map", e);
        }
    }
}
