package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Bruck's alltoall (MPICH's short-message algorithm): blocks are rotated so that block i is the one for member
 * me + i; in step k every block whose index has bit k set travels 2^k members further (packed into one
 * message); a final local rotation puts the received blocks in rank order. ⌈log2 p⌉ messages per member instead
 * of p − 1, at the price of moving each block up to log2 p times: for short blocks. The blocks it moves are as
 * long as the member's send blocks: when every member sends less than a receive block holds, each block gets what
 * was sent and the rest stays as it was (a member whose blocks differ in length from the others' makes a receive
 * fail with {@code ERR_TRUNCATE}).
 */
public final class BruckAlltoall {
    private BruckAlltoall() {
    }

    /**
     * Sends block i of {@code send} ({@code blockBytes} each) to member i and receives block i of {@code recv}
     * (starting at {@code i * stride}, {@code stride} at least {@code blockBytes}) from member i.
     */
    public static void append(Schedule s, Members m, MemorySegment send, MemorySegment recv, long blockBytes,
                              long stride) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int me = m.me();
        MemorySegment work = Blocks.scratch(blockBytes * size);
        s.local(() -> {
            for (int i = 0; i < size; i++) {
                MemorySegment.copy(send, ((me + i) % size) * blockBytes, work, i * blockBytes, blockBytes);
            }
        });
        MemorySegment outgoing = Blocks.scratch(blockBytes * ((size + 1) / 2));
        MemorySegment incoming = Blocks.scratch(blockBytes * ((size + 1) / 2));
        for (int distance = 1; distance < size; distance <<= 1) {
            int bit = distance;
            int moved = 0;
            for (int i = 0; i < size; i++) {
                moved += (i & bit) != 0 ? 1 : 0;
            }
            s.local(() -> move(work, outgoing, bit, size, blockBytes, true));
            s.send(outgoing.asSlice(0, moved * blockBytes), m.world((me + distance) % size));
            s.receive(incoming.asSlice(0, moved * blockBytes), m.world((me - distance + size) % size));
            s.endRound();
            s.local(() -> move(work, incoming, bit, size, blockBytes, false));
        }
        s.local(() -> {
            for (int i = 0; i < size; i++) {
                MemorySegment.copy(work, i * blockBytes, recv, ((me - i + size) % size) * stride, blockBytes);
            }
        }).endRound();
    }

    /** Packs the blocks of {@code work} whose index has {@code bit} set into {@code packed}, or unpacks them. */
    private static void move(MemorySegment work, MemorySegment packed, int bit, int size, long blockBytes,
                             boolean pack) {
        long at = 0;
        for (int i = 0; i < size; i++) {
            if ((i & bit) != 0) {
                if (pack) {
                    MemorySegment.copy(work, i * blockBytes, packed, at, blockBytes);
                } else {
                    MemorySegment.copy(packed, at, work, i * blockBytes, blockBytes);
                }
                at += blockBytes;
            }
        }
    }
}
