package mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.weft.adi.DeviceException;
import org.weft.adi.DynamicProcesses;
import org.weft.adi.ErrorClass;
import org.weft.adi.bootstrap.LauncherRequests;
import org.weft.core.MpiRuntime;
import org.weft.core.RuntimeBinding;
import org.weft.core.dyn.Spawning;
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
            runBlocking(call, c, Collectives.scan(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op, type,
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

    /** {@code MPI_Open_port}: a new port of this process, on which it can accept ({@code weft-port:JOB/RANK/TAG}). */
    public static String openPort() throws MPIException {
        return openPort(MPI.INFO_NULL);
    }

    /** {@code MPI_Open_port}; the info is not read. */
    public static String openPort(Info info) throws MPIException {
        MpiRuntime runtime = active("MPI_Open_port");
        return runtime.ports().open(runtime.world());
    }

    /** {@code MPI_Close_port}: {@code ERR_PORT} for a port this process has not open. */
    public static void closePort(String name) throws MPIException {
        try {
            active("MPI_Close_port").ports().close(name);
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Close_port", e);
        }
    }

    /**
     * {@code MPI_Comm_accept}: collective; at {@code root}, the process that opened {@code port}, waits for one
     * group to connect, and returns the intercommunicator to it.
     */
    public final Intercomm accept(String port, int root) throws MPIException {
        return accept(port, MPI.INFO_NULL, root);
    }

    /** {@code MPI_Comm_accept}; the info is not read. */
    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        return (Intercomm) created("MPI_Comm_accept", c -> c.runtime().ports().accept(checkedRoot(c, root), port,
                root));
    }

    /**
     * {@code MPI_Comm_connect}: collective; {@code root} connects to the group accepting on {@code port};
     * {@code ERR_PORT} for a name that is no port of this job.
     */
    public final Intercomm connect(String port, int root) throws MPIException {
        return connect(port, MPI.INFO_NULL, root);
    }

    /** {@code MPI_Comm_connect}; the info is not read. */
    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        return (Intercomm) created("MPI_Comm_connect", c -> c.runtime().ports().connect(checkedRoot(c, root), port,
                root));
    }

    /** {@code MPI_Publish_name}: through the launcher, for the job; {@code ERR_SERVICE} when the name is taken. */
    public static void publishName(String service, String port) throws MPIException {
        publishName(service, MPI.INFO_NULL, port);
    }

    /** {@code MPI_Publish_name}; the info is not read. */
    public static void publishName(String service, Info info, String port) throws MPIException {
        named("MPI_Publish_name", service, port, dynamic -> {
            dynamic.publishName(service, port);
            return null;
        });
    }

    /** {@code MPI_Unpublish_name}: {@code ERR_SERVICE} when {@code service} is not published for {@code port}. */
    public static void unpublishName(String service, String port) throws MPIException {
        unpublishName(service, MPI.INFO_NULL, port);
    }

    /** {@code MPI_Unpublish_name}; the info is not read. */
    public static void unpublishName(String service, Info info, String port) throws MPIException {
        named("MPI_Unpublish_name", service, port, dynamic -> {
            dynamic.unpublishName(service, port);
            return null;
        });
    }

    /** {@code MPI_Lookup_name}: the port published under {@code service}; {@code ERR_NAME} when there is none. */
    public static String lookupName(String service) throws MPIException {
        return lookupName(service, MPI.INFO_NULL);
    }

    /** {@code MPI_Lookup_name}; the info is not read. */
    public static String lookupName(String service, Info info) throws MPIException {
        return named("MPI_Lookup_name", service, "", dynamic -> dynamic.lookupName(service));
    }

    /**
     * {@code MPI_Comm_spawn}: starts {@code maxprocs} processes running main class {@code command} with
     * {@code argv}, through weftrun, with the root's class path and on its host unless {@code info} says
     * otherwise (keys {@code host}, {@code classpath}, {@code jvm_args}, {@code env}); collective, only the root's
     * arguments count. Returns the intercommunicator to the new processes' world once they have all called
     * {@code MPI.Init}; {@code errcodes} (may be null) gets {@code MPI.SUCCESS} for each. {@code ERR_SPAWN} when they
     * cannot be started (e.g. a main class that is not there).
     */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes)
            throws MPIException {
        return spawnMultiple(new String[] {command}, new String[][] {argv}, new int[] {maxprocs},
                new Info[] {info}, root, errcodes);
    }

    /**
     * {@code MPI_Comm_spawn_multiple}: as {@link #spawn}, several commands in one world, each its own
     * {@code MPI.APPNUM} (its index).
     */
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root,
                                         int[] errcodes) throws MPIException {
        Intercomm children = (Intercomm) created("MPI_Comm_spawn", c -> {
            checkedRoot(c, root);
            List<LauncherRequests.Command> spec = new ArrayList<>();
            if (c.rank() == root) {
                spec = SpawnArguments.commands(commands, argv, maxprocs, info);
            }
            return Spawning.spawn(c, root, spec);
        });
        if (errcodes != null) {
            java.util.Arrays.fill(errcodes, 0, Math.min(errcodes.length, children.getRemoteSize()), MPI.SUCCESS);
        }
        return children;
    }

    private static Communicator checkedRoot(Communicator c, int root) {
        c.group().checkRank(root);
        return c;
    }

    private static MpiRuntime active(String call) throws MPIException {
        MpiRuntime runtime = RuntimeBinding.slot().activeRuntime();
        if (runtime == null) {
            throw Errors.onWorld(call, ErrorClass.ERR_OTHER, "MPI is not initialised");
        }
        return runtime;
    }

    /** A name-service call: {@code ERR_ARG} for a null or empty name or port, the launcher's class else. */
    private static <T> T named(String call, String service, String port, Function<DynamicProcesses, T> step)
            throws MPIException {
        MpiRuntime runtime = active(call);
        if (service == null || service.isEmpty() || port == null) {
            throw Errors.onWorld(call, ErrorClass.ERR_ARG, "a service name and a port name are required");
        }
        try {
            return step.apply(runtime.device().dynamic());
        } catch (DeviceException e) {
            throw Errors.onWorld(call, e);
        }
    }

    // GENERATED-STUBS
}
