package mpi;

import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;

/** An intra-communicator ({@code MPI_Comm} of one group). Communicator creation is not implemented yet. */
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
        throw Errors.unsupported(core(), "MPI_Comm_dup");
    }

    /** {@code MPI_Comm_idup}. */
    @Override
    public Intracomm iDup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_idup");
    }

    /** {@code MPI_Comm_dup_with_info}. */
    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_dup_with_info");
    }

    /** {@code MPI_Comm_split} (not implemented in Weft yet). */
    public final Intracomm split(int value, int value2) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_split");
    }

    /** {@code MPI_Comm_split_type} (not implemented in Weft yet). */
    public final Intracomm splitType(int value, int value2, Info info) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_split_type");
    }

    /** {@code MPI_Comm_create} (not implemented in Weft yet). */
    public final Intracomm create(Group group) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_create");
    }

    /** {@code MPI_Comm_create_group} (not implemented in Weft yet). */
    public final Intracomm createGroup(Group group, int value) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_create_group");
    }

    /** {@code MPI_Cart_create} (not implemented in Weft yet). */
    public final CartComm createCart(int[] counts, boolean[] flags, boolean flag) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Cart_create");
    }

    /** {@code MPI_Graph_create} (not implemented in Weft yet). */
    public final GraphComm createGraph(int[] counts, int[] displs, boolean flag) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Graph_create");
    }

    /** {@code MPI_Dist_graph_create} (not implemented in Weft yet). */
    public final GraphComm createDistGraph(int[] counts, int[] displs, int[] displs2, int[] displs3, Info info, boolean flag) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Dist_graph_create");
    }

    /** {@code MPI_Dist_graph_create} (not implemented in Weft yet). */
    public final GraphComm createDistGraph(int[] counts, int[] displs, int[] displs2, Info info, boolean flag) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Dist_graph_create");
    }

    /** {@code MPI_Dist_graph_create_adjacent} (not implemented in Weft yet). */
    public final GraphComm createDistGraphAdjacent(int[] counts, int[] displs, int[] displs2, int[] displs3, Info info, boolean flag) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Dist_graph_create_adjacent");
    }

    /** {@code MPI_Dist_graph_create_adjacent} (not implemented in Weft yet). */
    public final GraphComm createDistGraphAdjacent(int[] counts, int[] displs, Info info, boolean flag) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Dist_graph_create_adjacent");
    }

    /** {@code MPI_Scan}: recursive doubling; rank order holds for non-commutative operations. */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        blocking("MPI_Scan", c -> Collectives.scan(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op, type,
                sendbuf), false));
    }

    /** {@code MPI_Scan}: recursive doubling; rank order holds for non-commutative operations. */
    public final void scan(Object buf, int count, Datatype type, Op op) throws MPIException {
        blocking("MPI_Scan", c -> Collectives.scan(c, null, buf, count, descriptor(type), Op.bind(op, type, buf),
                false));
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
        blocking("MPI_Exscan", c -> Collectives.scan(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op, type,
                sendbuf), true));
    }

    /** {@code MPI_Exscan}: recursive doubling; rank order holds for non-commutative operations. */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        blocking("MPI_Exscan", c -> Collectives.scan(c, null, buf, count, descriptor(type), Op.bind(op, type, buf),
                true));
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
