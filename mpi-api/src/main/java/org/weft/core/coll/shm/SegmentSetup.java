package org.weft.core.coll.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicInteger;

import org.weft.adi.SharedMemory;
import org.weft.core.coll.Collectives;
import org.weft.core.coll.Reduction;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;

/**
 * Makes a communicator's shared segment, collectively, through the communicator's point-to-point collectives:
 * the members agree that each reaches every other through shared memory (an allreduce), rank 0 creates the
 * segment and broadcasts its name, the others map it, all agree that each did (an allreduce), and rank 0 removes
 * the name — the mappings stay, and nothing is left in the job directory whatever happens later. Any member that
 * cannot take part makes all fall back to the schedules for good.
 */
final class SegmentSetup {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final Reduction MIN = new Reduction(PredefinedOp.MIN.bind(INT), true);
    /** Segments this process created: with its world rank, a name unique in the job. */
    private static final AtomicInteger CREATED = new AtomicInteger();

    private SegmentSetup() {
    }

    /** The communicator's segment, or {@code null} when its collectives keep the schedules. Collective. */
    static CommSegment setUp(Communicator comm) {
        SharedMemory shared = comm.device().sharedMemory();
        int n = comm.size();
        boolean here = shared != null && !comm.isInter() && n >= 2 && n <= SegmentLayout.MOST_RANKS
                && reachesAll(shared, comm);
        if (!agree(comm, here)) {
            return null;
        }
        SegmentLayout layout = new SegmentLayout(n);
        Arena arena = Arena.ofShared();
        int[] name = {0, comm.toWorld(0), 0}; // created?, creator's world rank, its serial
        MemorySegment memory = null;
        if (comm.rank() == 0) {
            name[2] = CREATED.incrementAndGet();
            memory = map(shared, fileName(name), layout, arena, true);
            name[0] = memory != null ? 1 : 0;
        }
        Collectives.bcast(comm, name, name.length, INT, 0).run(comm.collectives());
        if (name[0] != 0 && comm.rank() != 0) {
            memory = map(shared, fileName(name), layout, arena, false);
        }
        boolean mapped = agree(comm, memory != null);
        if (name[0] != 0 && comm.rank() == 0) {
            shared.remove(fileName(name));
        }
        if (!mapped) {
            arena.close();
            return null;
        }
        int[] worldRanks = new int[n];
        for (int r = 0; r < n; r++) {
            worldRanks[r] = comm.toWorld(r);
        }
        return new CommSegment(arena, memory, layout, comm.rank(), worldRanks, shared, comm.device(),
                comm.collectives(), comm.collectiveContext(), comm.runtime().sharedBuffers());
    }

    private static boolean reachesAll(SharedMemory shared, Communicator comm) {
        for (int r = 0; r < comm.size(); r++) {
            if (!shared.reaches(comm.toWorld(r))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code mine} holds at every member. */
    private static boolean agree(Communicator comm, boolean mine) {
        int[] all = {mine ? 1 : 0};
        Collectives.allReduce(comm, all, all, 1, INT, MIN).run(comm.collectives());
        return all[0] == 1;
    }

    private static String fileName(int[] name) {
        return name[1] + "-" + name[2];
    }

    private static MemorySegment map(SharedMemory shared, String name, SegmentLayout layout, Arena arena,
                                     boolean create) {
        try {
            return create ? shared.create(name, layout.totalBytes, arena)
                    : shared.open(name, layout.totalBytes, arena);
        } catch (IOException | RuntimeException e) {
            System.err.println("weft: collectives of this communicator keep point-to-point rounds: cannot "
                    + (create ? "create" : "map") + " their shared segment " + name + " (" + e.getMessage() + ")");
            return null;
        }
    }
}
