package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Ranks;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;

/**
 * The neighbour collectives' one step: receive block i from source i and send block j to destination j, all at
 * once; {@code PROC_NULL} neighbours are skipped (their receive blocks stay untouched). In a Cartesian topology
 * the message to destination j carries phase {@code j ^ 1} and source slot i expects phase i, so that what goes
 * to the −1 neighbour lands in its +1 slot even when both neighbours are one process. A block takes what its
 * neighbour sent, up to its size, as Open MPI's linear neighbour collectives do.
 */
public final class NeighborExchange {
    /** Phases of a Cartesian exchange use 8 bits: two per dimension. */
    private static final int MAX_CARTESIAN_SLOTS = 256;

    private NeighborExchange() {
    }

    /** {@code sources}/{@code destinations} in world ranks, {@code PROC_NULL} where there is no neighbour. */
    public static void append(Schedule s, int[] sources, MemorySegment[] recvBlocks, int[] destinations,
                              MemorySegment[] sendBlocks, boolean cartesian) {
        boolean byDirection = cartesian && sources.length <= MAX_CARTESIAN_SLOTS;
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] != Ranks.PROC_NULL) {
                s.receive(recvBlocks[i], sources[i], byDirection ? i : 0, Fill.UP_TO);
            }
        }
        for (int j = 0; j < destinations.length; j++) {
            if (destinations[j] != Ranks.PROC_NULL) {
                s.send(sendBlocks[j], destinations[j], byDirection ? j ^ 1 : 0);
            }
        }
        s.endRound();
    }
}
