package org.weft.core.dyn;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.weft.adi.Device;
import org.weft.adi.DeviceException;
import org.weft.adi.DynamicProcesses.ForeignGroup;
import org.weft.adi.ErrorClass;
import org.weft.adi.concurrent.BlockingCall;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.Intercomms;
import org.weft.core.comm.ProcessGroup;

/**
 * {@code MPI_Open_port}, {@code MPI_Close_port}, {@code MPI_Comm_accept} and {@code MPI_Comm_connect}, between the
 * processes of one job and between two jobs started by separate {@code weftrun}s. A port is a listening socket of
 * the process that opened it; its name ({@link PortName}) carries the socket's addresses and a random token whose
 * proof is the right to connect (two jobs share no secret).
 *
 * <p>A connection: both groups make themselves reachable; the connecting root dials the port, and the two roots
 * prove the token to each other ({@link PortSession}) and swap their groups: job id, job ranks, business cards. A
 * group of another job gets job ranks of this one, reserved at the launcher (so no spawn takes them), and its
 * processes become peers under those ranks, reached over tcp and proving the port link's key instead of the job's
 * secret ({@link ForeignGroup}). The roots broadcast what they learned in their groups, agree on context ids over
 * the socket, close it, and the intercommunicator's barrier makes sure nobody sends across before everybody can
 * answer. Every blocking step of the roots is awaited while the device progresses.
 */
public final class Ports {
    /** The ports this process opened and has not closed, by name. */
    private final Map<String, PortListener> open = new ConcurrentHashMap<>();

    /** {@code MPI_Open_port}: a new port of this process. */
    public String open(Communicator world) {
        try {
            PortListener listener = PortListener.open();
            String name = listener.name(world.device().dynamic().jobId(), world.device().rank()).format();
            open.put(name, listener);
            return name;
        } catch (IOException e) {
            throw new DeviceException(ErrorClass.ERR_PORT, "cannot listen for a port: " + e.getMessage(), e);
        }
    }

    /** {@code MPI_Close_port}: {@code ERR_PORT} for a port this process did not open (or closed already). */
    public void close(String name) {
        PortListener listener = name == null ? null : open.remove(name);
        if (listener == null) {
            throw new DeviceException(ErrorClass.ERR_PORT, "no open port of this process is named " + name);
        }
        try {
            listener.close();
        } catch (IOException ignored) {
            // closed anyway
        }
    }

    /** {@code MPI_Comm_accept}: waits at {@code root} for one connection to {@code port}. */
    public Communicator accept(Communicator comm, String port, int root) {
        return meet(comm, root, () -> {
            PortListener listener = port == null ? null : open.get(port);
            if (listener == null) {
                throw new DeviceException(ErrorClass.ERR_PORT, "port " + port + " is not open at this process"
                        + " (the process that opened a port accepts on it)");
            }
            return listener.accept();
        });
    }

    /** {@code MPI_Comm_connect}: connects {@code comm} to the group accepting on {@code port}. */
    public Communicator connect(Communicator comm, String port, int root) {
        return meet(comm, root, () -> PortSession.connect(PortName.parse(port)));
    }

    /** Both sides: the root opens the session, the group learns the other group, the two build the intercomm. */
    private static Communicator meet(Communicator comm, int root, BlockingCall<PortSession> opening) {
        WorldBridge.prepare(comm);
        Device device = comm.device();
        PortSession session = null;
        byte[] learned = null;
        DeviceException failure = null;
        if (comm.rank() == root) {
            try {
                session = device.awaitResult(BlockingCall.onThread("weft-port", opening));
                learned = Meeting.introduce(comm, session).encode();
            } catch (DeviceException e) {
                failure = e;
            } catch (IOException | RuntimeException e) {
                failure = new DeviceException(ErrorClass.ERR_PORT, "the connection through the port failed: "
                        + e.getMessage(), e);
            }
            if (failure != null && session != null) {
                session.close();
            }
        }
        int[] length = WorldBridge.agreeOnRoot(comm, root, new int[] {learned == null ? 0 : learned.length},
                failure);
        Meeting meeting = Meeting.decode(Meeting.bcast(comm, root, learned, length[0]));
        if (meeting.foreign()) {
            device.dynamic().adopt(new ForeignGroup(meeting.jobId(), meeting.linkKey(), meeting.firstAlias(),
                    meeting.ranksThere(), meeting.ourFirstThere() + comm.rank(), meeting.cards()));
        }
        ProcessGroup remote = ProcessGroup.of(meeting.ranksHere());
        Communicator inter;
        try {
            inter = Intercomms.create(comm, root, session == null ? null : new SessionLink(session, device), remote);
        } finally {
            if (session != null) {
                session.close();
            }
        }
        device.dynamic().reach(remote.worldRanks());
        Collectives.barrier(inter).run();
        return inter;
    }

    /** The roots' link for the context-id agreement: the port's socket. */
    private record SessionLink(PortSession session, Device device) implements Intercomms.LeaderLink {
        @Override
        public void swap(int[] out, int[] in) {
            try {
                int[] theirs = Meeting.ints(device.awaitResult(BlockingCall.onThread("weft-port",
                        () -> session.swap(Meeting.bytes(out)))));
                if (theirs.length != in.length) {
                    throw new IOException("the other root swapped " + theirs.length + " ids, not " + in.length);
                }
                System.arraycopy(theirs, 0, in, 0, in.length);
            } catch (IOException e) {
                throw new DeviceException(ErrorClass.ERR_PORT, "the other job's root left while the two groups "
                        + "agreed on their communicator: " + e.getMessage(), e);
            }
        }
    }
}
