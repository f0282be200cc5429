package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Binomial-tree reduction for commutative operations (MPICH's short-message algorithm): the broadcast tree run
 * backwards. A member receives the partial results of all its children at once, combines them into its own
 * (the root into its receive buffer, others into a private copy) and sends the result to its parent. The
 * combining order follows the tree, not the ranks, hence commutative operations only.
 */
public final class BinomialReduce {
    private BinomialReduce() {
    }

    /** Combines every member's {@code send} into {@code recv} of member {@code root} (unused elsewhere). */
    public static void append(Schedule s, Members m, MemorySegment send, MemorySegment recv, int count,
                              Combiner op, int root) {
        if (!m.includesMe()) {
            return;
        }
        int size = m.size();
        int relative = (m.me() - root + size) % size;
        boolean isRoot = relative == 0;
        List<Integer> children = new ArrayList<>();
        int parent = -1;
        for (int mask = 1; mask < size; mask <<= 1) {
            if ((relative & mask) != 0) {
                parent = (relative - mask + root) % size;
                break;
            }
            if ((relative | mask) < size) {
                children.add(((relative | mask) + root) % size);
            }
        }
        // the partial result: the root's recv, a private copy on a member with children, else send itself; the
        // first child's part is combined with send straight into it (Combiner.combineInto), copying nothing first
        MemorySegment partial = isRoot ? recv : children.isEmpty() ? send : Blocks.scratch(send.byteSize());
        MemorySegment[] incoming = new MemorySegment[children.size()];
        for (int i = 0; i < incoming.length; i++) {
            incoming[i] = Blocks.scratch(send.byteSize());
            s.receive(incoming[i], m.world(children.get(i)));
        }
        s.endRound();
        MemorySegment result = partial;
        if (incoming.length == 0 && partial != send) {
            s.local(() -> MemorySegment.copy(send, 0, result, 0, send.byteSize())); // a root alone; no-op in place
        }
        s.local(() -> {
            for (int i = 0; i < incoming.length; i++) {
                op.combineInto(incoming[i], i == 0 ? send : result, result, count);
            }
        });
        if (parent >= 0) {
            s.send(partial, m.world(parent));
        }
        s.endRound();
    }
}
