package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Schedule;

/**
 * The nonblocking barrier, reduce, allreduce and reduce_scatter_block through a communicator's segment
 * ({@link CommSegment}), as rounds of a schedule that waits for other members' flags ({@link Schedule#until}) instead
 * of messages: the call takes the operation's number and returns; each test or wait of its request (and every wait
 * of the communicator's other collectives) advances it as far as the flags allow, never blocking the caller.
 *
 * <p>Phases go up in order at every member, so an operation's first round waits until this rank is done with the
 * nonblocking operation begun before it and every member with the one that used its slot set
 * ({@link CommSegment#mayBegin}); then the steps are the blocking forms' ({@link SharedCollectives}). Reductions go
 * this way when their byte count, which every member knows alike (signature matching), fits a slot; the block
 * collectives' nonblocking forms are {@link SharedBlockSchedules}.
 */
final class SharedSchedules {
    private SharedSchedules() {
    }

    /** {@code MPI_Ibarrier}: publish {@code 2s}, then wait until every member did. */
    static void barrier(CommSegment seg, Schedule plan) {
        long s = begin(seg, plan);
        plan.local(() -> seg.publish(2 * s)).until(() -> seg.allReached(2 * s)).endRound();
    }

    /**
     * {@code MPI_Iallreduce} ({@code root < 0}) or {@code MPI_Ireduce} to {@code root}: each copies its data into
     * its slot; the reducers wait for all and combine the slots in rank order into {@code recv}.
     */
    static void reduce(CommSegment seg, Schedule plan, MemorySegment send, MemorySegment recv, int count,
                       Combiner combiner, int root, int me) {
        long bytes = send.byteSize();
        long s = begin(seg, plan);
        if (root >= 0 && root != me) {
            plan.local(() -> {
                MemorySegment.copy(send, 0, seg.slot(s, me), 0, bytes);
                seg.publish(2 * s);
            }).endRound();
            return;
        }
        plan.local(() -> {
            MemorySegment.copy(send, 0, seg.slot(s, me), 0, bytes);
            seg.publish(2 * s - 1);
        }).until(() -> seg.allReached(2 * s - 1)).endRound();
        plan.local(() -> {
            combineSlots(seg, s, -1, 0, recv, count, combiner);
            seg.publish(2 * s);
        }).endRound();
    }

    /**
     * {@code MPI_Ireduce_scatter_block}: each copies its {@code n} blocks into its slot, waits for all and combines
     * block {@code me} of every slot in rank order into {@code recv}.
     */
    static void reduceScatterBlock(CommSegment seg, Schedule plan, MemorySegment send, MemorySegment recv,
                                   int count, Combiner combiner, int me) {
        long s = begin(seg, plan);
        plan.local(() -> {
            MemorySegment.copy(send, 0, seg.slot(s, me), 0, send.byteSize());
            seg.publish(2 * s - 1);
        }).until(() -> seg.allReached(2 * s - 1)).endRound();
        plan.local(() -> {
            combineSlots(seg, s, me, recv.byteSize(), recv, count, combiner);
            seg.publish(2 * s);
        }).endRound();
    }

    /** Takes the operation's number and appends the round that waits until it may begin; returns the number. */
    static long begin(CommSegment seg, Schedule plan) {
        long after = seg.lastNonblocking();
        long s = seg.reserve();
        plan.until(() -> seg.mayBegin(s, after)).endRound();
        return s;
    }

    /**
     * Combines what every member put in its slot for operation {@code s} into {@code recv} in rank order,
     * {@code recv = c0 op (c1 op (… c(n-1)))}: whole slots ({@code index < 0}), or block {@code index} of
     * {@code block} bytes of each. The same bits at every member, and a non-commutative operation's order holds.
     */
    static void combineSlots(CommSegment seg, long s, int index, long block, MemorySegment recv, int count,
                             Combiner combiner) {
        int last = seg.ranks() - 1;
        combiner.combineInto(part(seg, s, last - 1, index, block), part(seg, s, last, index, block), recv, count);
        for (int r = last - 2; r >= 0; r--) {
            combiner.combine(part(seg, s, r, index, block), recv, count);
        }
    }

    private static MemorySegment part(CommSegment seg, long s, int rank, int index, long block) {
        return index < 0 ? seg.slot(s, rank) : seg.block(s, rank, index, block);
    }
}
