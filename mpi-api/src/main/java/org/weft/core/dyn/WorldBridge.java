package org.weft.core.dyn;

import org.weft.adi.DeviceException;
import org.weft.adi.DynamicProcesses;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.comm.Intercomms;
import org.weft.core.comm.ProcessGroup;

/**
 * Joins two groups of different worlds into an intercommunicator. Their leaders (one process each) know each
 * other's job rank and meet over a <em>bridge</em>: a communicator of the two of them in a context no communicator
 * takes ({@link #CONTEXT}, above every agreed id), where a per-connection tag keeps connections apart. From there
 * it is {@code MPI_Intercomm_create}: the leaders swap their groups and agree with their groups on context ids
 * free on both sides. Then every process reaches the other group's processes (their business cards, the methods
 * between them) and the intercommunicator's barrier makes sure nobody sends across before everybody can answer.
 */
final class WorldBridge {
    /** The bridge's context: outside the pool of agreed ids (2 x {@code ContextIds} words x 32 = 4096). */
    static final int CONTEXT = 0x4000_0000;

    private WorldBridge() {
    }

    /**
     * The intercommunicator between {@code local} and the group whose leader is job rank {@code remoteLeader};
     * collective over {@code local}, with the other group calling it too. Only {@code root}'s {@code remoteLeader}
     * counts (the others pass anything).
     */
    static Communicator join(Communicator local, int root, int remoteLeader, int tag) {
        DynamicProcesses dynamic = local.device().dynamic();
        Communicator bridge = null;
        if (local.rank() == root) {
            dynamic.reach(new int[] {remoteLeader});
            bridge = new Communicator(local.runtime(), ProcessGroup.of(local.device().rank(), remoteLeader),
                    CONTEXT, "bridge to job rank " + remoteLeader, true);
        }
        Communicator inter = Intercomms.create(local, root, bridge, 1, tag);
        dynamic.reach(inter.remoteGroup().worldRanks());
        Collectives.barrier(inter).run();
        return inter;
    }

    /**
     * What {@code root} found, on every process of {@code comm}: {@code values} as the root has them, or the root's
     * error (its class, negated, in {@code values[0]}) raised on every process alike.
     */
    static int[] agreeOnRoot(Communicator comm, int root, int[] values, DeviceException failure) {
        int[] shared = values.clone();
        if (comm.rank() == root && failure != null) {
            shared[0] = -failure.errorClass();
        }
        CreationCalls.bcast(comm, shared, root);
        if (shared[0] < 0) {
            throw failure != null ? failure : new DeviceException(-shared[0], "failed at the root (rank " + root
                    + " of " + comm + ")");
        }
        return shared;
    }

    /** Makes every member of {@code comm} reachable from other worlds before any of them is looked up. */
    static void prepare(Communicator comm) {
        comm.device().dynamic().prepare();
        Collectives.barrier(comm).run();
    }
}
