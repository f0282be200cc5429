package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;

/**
 * Broadcast of long messages by scatter and allgather (van de Geijn; MPICH's long-message algorithm): the root
 * sends each member one p-th of the message, then a ring allgather completes everyone's copy, in place. The root
 * sends about n bytes instead of n log p, and every link carries about 2n: for messages where bandwidth, not the
 * number of steps, sets the time.
 */
public final class ScatterAllgatherBcast {
    private ScatterAllgatherBcast() {
    }

    /** Copies {@code data} of member {@code root} into {@code data} of every member. */
    public static void append(Schedule s, Members m, MemorySegment data, int root) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        long bytes = data.byteSize();
        int[] counts = new int[size];
        int[] displs = new int[size];
        for (int i = 0, at = 0; i < size; i++) {
            counts[i] = Math.toIntExact(bytes / size + (i < bytes % size ? 1 : 0));
            displs[i] = at;
            at += counts[i];
        }
        MemorySegment[] pieces = Blocks.of(data, counts, displs, 1);
        LinearScatter.append(s, m, pieces, m.me() == root ? null : pieces[m.me()], root, Fill.EXACT);
        RingAllgather.append(s, m, null, pieces, Fill.EXACT);
    }
}
