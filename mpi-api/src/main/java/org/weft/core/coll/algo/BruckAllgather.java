package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Bruck's allgather (MPICH's short-message algorithm for any p): members work in a buffer rotated so that their
 * own block comes first; in step k each member sends the first min(2^k, p − 2^k) blocks it holds to member
 * − 2^k and appends those of member + 2^k; a final local rotation puts the blocks in rank order. ⌈log2 p⌉
 * steps, so few latencies for short blocks. The blocks it moves are as long as the member's own data: when every
 * member sends less than its receive block holds, each block gets what was sent and the rest stays as it was (a
 * member whose data differs in length from the others' makes a receive fail with {@code ERR_TRUNCATE}).
 */
public final class BruckAllgather {
    private BruckAllgather() {
    }

    /**
     * Gathers {@code mine} of every member into {@code recv}, in member order, block i starting at
     * {@code i * stride} ({@code stride} at least {@code mine.byteSize()}).
     */
    public static void append(Schedule s, Members m, MemorySegment mine, MemorySegment recv, long stride) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        long blockBytes = mine.byteSize();
        MemorySegment rotated = Blocks.scratch(blockBytes * size);
        s.local(() -> MemorySegment.copy(mine, 0, rotated, 0, blockBytes));
        for (int distance = 1; distance < size; distance <<= 1) {
            int blocks = Math.min(distance, size - distance);
            s.send(rotated.asSlice(0, blocks * blockBytes), m.world((me - distance + size) % size));
            s.receive(rotated.asSlice(distance * blockBytes, blocks * blockBytes), m.world((me + distance) % size));
            s.endRound();
        }
        s.local(() -> {
            for (int i = 0; i < size; i++) {
                MemorySegment.copy(rotated, i * blockBytes, recv, ((me + i) % size) * stride, blockBytes);
            }
        }).endRound();
    }
}
