package mpi;

import org.weft.adi.DeviceException;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.Intracomms;
import org.weft.core.comm.ProcessGroup;
import org.weft.core.topo.TopologyComms;

/**
 * An intra-communicator ({@code MPI_Comm} of one group): creation of communicators from it (split, create,
 * topologies) delegates to {@code org.weft.core.comm} and {@code org.weft.core.topo}.
 */
public class Intracomm extends Comm {
    Intracomm(int predefined) {
        super(predefined);
    }

    Intracomm(Communicator communicator) {
        super(communicator);
    }

    @Override
    public Intracomm clone() {
        return (Intracomm) super.clone();
    }

    /** {@code MPI_Comm_dup}. */
    @Override
    public Intracomm dup() throws MPIException {
        return (Intracomm) super.dup();
    }

    /** {@code MPI_Comm_idup}: completes at once. */
    @Override
    public Intracomm iDup() throws MPIException {
        return (Intracomm) super.iDup();
    }

    /** {@code MPI_Comm_dup_with_info}. */
    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        return (Intracomm) super.dupWithInfo(info);
    }

    /**
     * {@code MPI_Comm_split}: one communicator per {@code colour}, ordered by {@code key} then rank; a null
     * communicator for {@code MPI.UNDEFINED}.
     */
    public final Intracomm split(int colour, int key) throws MPIException {
        return (Intracomm) created("MPI_Comm_split", c -> Intracomms.split(c, colour, key));
    }

    /** {@code MPI_Comm_split_type}: {@link Comm#TYPE_SHARED} groups the ranks of one host. */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        return (Intracomm) created("MPI_Comm_split_type", c -> Intracomms.splitType(c, splitType, key));
    }

    /** {@code MPI_Comm_create}: collective over this communicator; non-members get a null communicator. */
    public final Intracomm create(Group group) throws MPIException {
        ProcessGroup members = group.core("MPI_Comm_create");
        return (Intracomm) created("MPI_Comm_create", c -> Intracomms.create(c, members));
    }

    /** {@code MPI_Comm_create_group}: collective over the members of {@code group} only. */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        ProcessGroup members = group.core("MPI_Comm_create_group");
        return (Intracomm) created("MPI_Comm_create_group", c -> Intracomms.createGroup(c, members, tag));
    }

    /**
     * {@code MPI_Cart_create}: ranks are never reordered; ranks beyond the grid get a null communicator.
     * {@code ERR_DIMS} for a dimension below 1, {@code ERR_ARG} for a grid larger than this communicator.
     */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        Comm cart = created("MPI_Cart_create", c -> TopologyComms.cart(c, dims, periods));
        return cart instanceof CartComm typed ? typed : CartComm.nullComm();
    }

    /** {@code MPI_Graph_create}: ranks beyond the graph's nodes get a null communicator. */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
        return graphOrNull(created("MPI_Graph_create", c -> TopologyComms.graph(c, index, edges)));
    }

    /** {@code MPI_Dist_graph_create} with edge weights. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights,
                                           Info info, boolean reorder) throws MPIException {
        return graphOrNull(created("MPI_Dist_graph_create",
                c -> TopologyComms.distGraph(c, sources, degrees, destinations, weights)));
    }

    /** {@code MPI_Dist_graph_create} without weights ({@code MPI_UNWEIGHTED}). */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info,
                                           boolean reorder) throws MPIException {
        return createDistGraph(sources, degrees, destinations, null, info, reorder);
    }

    /** {@code MPI_Dist_graph_create_adjacent} with edge weights. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                                   int[] destWeights, Info info, boolean reorder)
            throws MPIException {
        return graphOrNull(created("MPI_Dist_graph_create_adjacent",
                c -> TopologyComms.distGraphAdjacent(c, sources, sourceWeights, destinations, destWeights)));
    }

    /** {@code MPI_Dist_graph_create_adjacent} without weights. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
            throws MPIException {
        return createDistGraphAdjacent(sources, null, destinations, null, info, reorder);
    }

    private static GraphComm graphOrNull(Comm comm) {
        return comm instanceof GraphComm typed ? typed : GraphComm.nullComm();
    }

    /** {@code MPI_Scan}: recursive doubling; rank order holds for non-commutative operations. */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        keptScan("MPI_Scan", sendbuf, recvbuf, count, type, op, false);
    }

    /** {@code MPI_Scan}: recursive doubling; rank order holds for non-commutative operations. */
    public final void scan(Object buf, int count, Datatype type, Op op) throws MPIException {
        keptScan("MPI_Scan", null, buf, count, type, op, false);
    }

    /** {@code MPI_Iscan}: recursive doubling; rank order holds for non-commutative operations. */
    public final Request iScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Iscan", c -> Collectives.scan(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op,
                type, sendbuf), false));
    }

    /** {@code MPI_Iscan}: recursive doubling; rank order holds for non-commutative operations. */
    public final Request iScan(java.nio.Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Iscan", c -> Collectives.scan(c, null, buf, count, descriptor(type), Op.bind(op, type,
                buf), false));
    }

    /** {@code MPI_Exscan}: recursive doubling; rank order holds for non-commutative operations. */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        keptScan("MPI_Exscan", sendbuf, recvbuf, count, type, op, true);
    }

    /**
     * A blocking scan ({@code sendbuf == null}: in place) that may run the schedule this communicator kept for the
     * same arguments, without the per-call lambda of {@code blocking}: a repeated scan allocates nothing.
     */
    private void keptScan(String call, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                          boolean exclusive) throws MPIException {
        Communicator c = core();
        try {
            runBlocking(c, Collectives.scan(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op, type,
                    sendbuf != null ? sendbuf : recvbuf), exclusive, true));
        } catch (DeviceException e) {
            throw Errors.raise(c, call, e);
        }
    }

    /** {@code MPI_Exscan}: recursive doubling; rank order holds for non-commutative operations. */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        keptScan("MPI_Exscan", null, buf, count, type, op, true);
    }

    /** {@code MPI_Iexscan}: recursive doubling; rank order holds for non-commutative operations. */
    public final Request iExScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Iexscan", c -> Collectives.scan(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op,
                type, sendbuf), true));
    }

    /** {@code MPI_Iexscan}: recursive doubling; rank order holds for non-commutative operations. */
    public final Request iExScan(java.nio.Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Iexscan", c -> Collectives.scan(c, null, buf, count, descriptor(type), Op.bind(op, type,
                buf), true));
    }

    /** {@code MPI_Open_port} (not implemented in Weft yet). */
    public static String openPort() throws MPIException {
        throw Errors.unsupported("MPI_Open_port");
    }

    /** {@code MPI_Open_port} (not implemented in Weft yet). */
    public static String openPort(Info info) throws MPIException {
        throw Errors.unsupported("MPI_Open_port");
    }

    /** {@code MPI_Close_port} (not implemented in Weft yet). */
    public static void closePort(String name) throws MPIException {
        throw Errors.unsupported("MPI_Close_port");
    }

    /** {@code MPI_Comm_accept} (not implemented in Weft yet). */
    public final Intercomm accept(String name, int value) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_accept");
    }

    /** {@code MPI_Comm_accept} (not implemented in Weft yet). */
    public final Intercomm accept(String name, Info info, int value) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_accept");
    }

    /** {@code MPI_Comm_connect} (not implemented in Weft yet). */
    public final Intercomm connect(String name, int value) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_connect");
    }

    /** {@code MPI_Comm_connect} (not implemented in Weft yet). */
    public final Intercomm connect(String name, Info info, int value) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_connect");
    }

    /** {@code MPI_Publish_name} (not implemented in Weft yet). */
    public static void publishName(String name, String name2) throws MPIException {
        throw Errors.unsupported("MPI_Publish_name");
    }

    /** {@code MPI_Publish_name} (not implemented in Weft yet). */
    public static void publishName(String name, Info info, String name2) throws MPIException {
        throw Errors.unsupported("MPI_Publish_name");
    }

    /** {@code MPI_Unpublish_name} (not implemented in Weft yet). */
    public static void unpublishName(String name, String name2) throws MPIException {
        throw Errors.unsupported("MPI_Unpublish_name");
    }

    /** {@code MPI_Unpublish_name} (not implemented in Weft yet). */
    public static void unpublishName(String name, Info info, String name2) throws MPIException {
        throw Errors.unsupported("MPI_Unpublish_name");
    }

    /** {@code MPI_Lookup_name} (not implemented in Weft yet). */
    public static String lookupName(String name) throws MPIException {
        throw Errors.unsupported("MPI_Lookup_name");
    }

    /** {@code MPI_Lookup_name} (not implemented in Weft yet). */
    public static String lookupName(String name, Info info) throws MPIException {
        throw Errors.unsupported("MPI_Lookup_name");
    }

    /** {@code MPI_Comm_spawn} (not implemented in Weft yet). */
    public final Intercomm spawn(String name, String[] arg, int value, Info info, int value2, int[] counts) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_spawn");
    }

    /** {@code MPI_Comm_spawn_multiple} (not implemented in Weft yet). */
    public final Intercomm spawnMultiple(String[] arg, String[][] arg2, int[] counts, Info[] arg3, int value, int[] counts2) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_spawn_multiple");
    }

    // GENERATED-STUBS
}
