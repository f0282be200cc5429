package org.weft.core.dyn;

import java.util.List;
import org.weft.adi.DeviceException;
import org.weft.adi.DynamicProcesses;
import org.weft.adi.ErrorClass;
import org.weft.adi.bootstrap.LauncherRequests.Command;
import org.weft.adi.bootstrap.LauncherRequests.SpawnSpec;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;

/**
 * {@code MPI_Comm_spawn} and {@code MPI_Comm_spawn_multiple}, and the children's side, {@code MPI_Comm_get_parent}.
 * The parents' root asks the launcher (through the device) for a world of new processes; the launcher answers when
 * they have all met (their own descriptor exchange, in their {@code MPI_Init}); the root tells the parents the
 * children's job ranks, and the parents' group and the children's world join into an intercommunicator, the
 * children's world's rank 0 leading their side. Children do their side in {@code MPI_Init} ({@link #parentOf}),
 * which is why a spawn returns only once every child has initialised.
 */
public final class Spawning {
    /** The tag of the leaders' swaps of a spawn (one spawn per child world: no two share it). */
    static final int SPAWN_TAG = 0x5350_0000;

    private Spawning() {
    }

    /**
     * Spawns {@code commands} from {@code comm} (collective; only {@code root}'s commands count); returns the
     * intercommunicator to the children's world. {@code ERR_SPAWN} (on every parent) when they cannot be started.
     */
    public static Communicator spawn(Communicator comm, int root, List<Command> commands) {
        DynamicProcesses dynamic = comm.device().dynamic();
        dynamic.prepare(); // the root before it spawns: the children's leader reaches it first
        if (comm.rank() != root) {
            Collectives.barrier(comm).run(); // the others while the children start: they are looked up later
        }
        int[] children = new int[1];
        DeviceException failure = null;
        if (comm.rank() == root) {
            try {
                children = dynamic.spawn(new SpawnSpec(comm.device().rank(), commands));
            } catch (DeviceException e) {
                failure = e.errorClass() == ErrorClass.ERR_SPAWN ? e
                        : new DeviceException(ErrorClass.ERR_SPAWN, e.getMessage(), e);
            }
        }
        if (comm.rank() == root) {
            Collectives.barrier(comm).run(); // every parent is reachable before the children learn the group
        }
        int[] count = WorldBridge.agreeOnRoot(comm, root, new int[] {children.length}, failure);
        int[] ranks = comm.rank() == root ? children : new int[count[0]];
        CreationCalls.bcast(comm, ranks, root);
        return WorldBridge.join(comm, root, ranks[0], SPAWN_TAG);
    }

    /**
     * The intercommunicator to the parents of this process's world, made in {@code MPI_Init} with them (they are
     * waiting in their spawn); {@code null} when no process spawned this world.
     */
    public static Communicator parentOf(Communicator world) {
        int parent = world.device().dynamic().parent();
        if (parent < 0) {
            return null;
        }
        return WorldBridge.join(world, 0, parent, SPAWN_TAG);
    }
}
