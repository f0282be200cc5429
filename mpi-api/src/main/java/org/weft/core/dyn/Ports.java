package org.weft.core.dyn;

import java.security.SecureRandom;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.Communicator;

/**
 * {@code MPI_Open_port}, {@code MPI_Close_port}, {@code MPI_Comm_accept} and {@code MPI_Comm_connect} between the
 * processes of one job (its first world and every world spawned from it). A port name says what the other side
 * needs: {@code weft-port:JOB/RANK/TAG}, the job's id, the job rank of the process that opened it (which accepts
 * on it as its group's root) and a random tag that keeps its connections apart from every other port's. Within a
 * job the right to connect is the job's secret, which every process proved when it joined; a port of another job
 * is {@code ERR_PORT} (see docs/architecture.md, "Dynamic processes", for how jobs will meet).
 *
 * <p>A connection: both groups make themselves reachable; the connecting root sends its job rank to the port's
 * process on the bridge context with the port's tag (a knock, which waits there as an unexpected message until
 * that process accepts); the accepting root takes the first knock, and the two roots lead their groups into one
 * intercommunicator ({@link WorldBridge}).
 */
public final class Ports {
    private static final String PREFIX = "weft-port:";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The ports this process opened and has not closed. */
    private final Set<String> open = ConcurrentHashMap.newKeySet();

    /** {@code MPI_Open_port}: a new port of this process. */
    public String open(Communicator world) {
        int tag = 1 + RANDOM.nextInt(Ranks.TAG_UB - 1);
        String name = PREFIX + world.device().dynamic().jobId() + "/" + world.device().rank() + "/" + tag;
        open.add(name);
        return name;
    }

    /** {@code MPI_Close_port}: {@code ERR_PORT} for a port this process did not open (or closed already). */
    public void close(String name) {
        if (name == null || !open.remove(name)) {
            throw new DeviceException(ErrorClass.ERR_PORT, "no open port of this process is named " + name);
        }
    }

    /** {@code MPI_Comm_accept}: waits at {@code root} for one connection to {@code port}. */
    public Communicator accept(Communicator comm, String port, int root) {
        WorldBridge.prepare(comm);
        int[] connector = {0};
        DeviceException failure = null;
        if (comm.rank() == root) {
            try {
                PortName name = parse(port, comm);
                if (!open.contains(port) || name.owner() != comm.device().rank()) {
                    throw new DeviceException(ErrorClass.ERR_PORT, "port " + port + " is not open at this process"
                            + " (the process that opened a port accepts on it)");
                }
                int[] knock = new int[1];
                DeviceRequest request = comm.device().irecv(java.lang.foreign.MemorySegment.ofArray(knock),
                        Ranks.ANY_SOURCE, name.tag(), WorldBridge.CONTEXT);
                comm.device().await(request);
                connector[0] = knock[0];
            } catch (DeviceException e) {
                failure = e;
            }
        }
        int[] agreed = WorldBridge.agreeOnRoot(comm, root, connector, failure);
        return WorldBridge.join(comm, root, agreed[0], tagAtRoot(comm, root, port));
    }

    /** {@code MPI_Comm_connect}: connects {@code comm} to the group accepting on {@code port}. */
    public Communicator connect(Communicator comm, String port, int root) {
        WorldBridge.prepare(comm);
        int[] owner = {0};
        DeviceException failure = null;
        if (comm.rank() == root) {
            try {
                PortName name = parse(port, comm);
                comm.device().dynamic().reach(new int[] {name.owner()});
                int[] knock = {comm.device().rank()};
                comm.device().await(comm.device().isend(java.lang.foreign.MemorySegment.ofArray(knock), name.owner(),
                        name.tag(), WorldBridge.CONTEXT, org.weft.adi.SendMode.STANDARD));
                owner[0] = name.owner();
            } catch (DeviceException e) {
                failure = e.errorClass() == ErrorClass.ERR_PORT ? e
                        : new DeviceException(ErrorClass.ERR_PORT, "cannot reach port " + port + ": "
                        + e.getMessage(), e);
            }
        }
        int[] agreed = WorldBridge.agreeOnRoot(comm, root, owner, failure);
        return WorldBridge.join(comm, root, agreed[0], tagAtRoot(comm, root, port));
    }

    /** The port's tag at the root; the others' is not used (only the root talks over the bridge). */
    private static int tagAtRoot(Communicator comm, int root, String port) {
        return comm.rank() == root ? parse(port, comm).tag() : 0;
    }

    /** A port name taken apart. */
    record PortName(String jobId, int owner, int tag) {
    }

    /** {@code port} taken apart; {@code ERR_PORT} for a name that is not a port of this job. */
    static PortName parse(String port, Communicator comm) {
        if (port == null || !port.startsWith(PREFIX)) {
            throw new DeviceException(ErrorClass.ERR_PORT, "not a Weft port name: " + port);
        }
        String[] parts = port.substring(PREFIX.length()).split("/");
        if (parts.length != 3) {
            throw new DeviceException(ErrorClass.ERR_PORT, "a malformed port name: " + port);
        }
        String jobId = comm.device().dynamic().jobId();
        if (!parts[0].equals(jobId)) {
            throw new DeviceException(ErrorClass.ERR_PORT, "port " + port + " belongs to another job (this is "
                    + jobId + "): Weft connects processes of one job only, so far");
        }
        try {
            int owner = Integer.parseInt(parts[1]);
            int tag = Integer.parseInt(parts[2]);
            if (owner < 0 || tag < 1) {
                throw new NumberFormatException();
            }
            return new PortName(parts[0], owner, tag);
        } catch (NumberFormatException e) {
            throw new DeviceException(ErrorClass.ERR_PORT, "a malformed port name: " + port);
        }
    }
}
