package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.core.coll.algo.BinomialBcast;
import org.weft.core.coll.algo.BinomialReduce;
import org.weft.core.coll.algo.BruckAllgather;
import org.weft.core.coll.algo.BruckAlltoall;
import org.weft.core.coll.algo.DisseminationBarrier;
import org.weft.core.coll.algo.HierarchicalAllreduce;
import org.weft.core.coll.algo.HierarchicalBarrier;
import org.weft.core.coll.algo.HierarchicalBcast;
import org.weft.core.coll.algo.HierarchicalReduce;
import org.weft.core.coll.algo.Hierarchy;
import org.weft.core.coll.algo.OrderedLinearReduce;
import org.weft.core.coll.algo.PairwiseAlltoall;
import org.weft.core.coll.algo.RabenseifnerAllreduce;
import org.weft.core.coll.algo.RecursiveDoublingAllreduce;
import org.weft.core.coll.algo.RingAllgather;
import org.weft.core.coll.algo.ScatterAllgatherBcast;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;

/**
 * Which algorithm runs a collective, by layout, operation, message size and process count:
 * <ul>
 * <li>barrier, bcast, reduce (commutative), allreduce (commutative): multilevel (site, then host) when the
 * members span several sites or hosts; otherwise flat;</li>
 * <li>barrier: dissemination; bcast: binomial tree, or scatter + ring allgather from {@value #LONG_MESSAGE}
 * bytes with more than 2 members; reduce: binomial tree, or linear in rank order for
 * non-commutative operations;</li>
 * <li>allreduce: Rabenseifner from {@value #LONG_VECTOR} bytes (commutative, count ≥ p'), else recursive
 * doubling (also for non-commutative operations: it keeps rank order);</li>
 * <li>allgather: Bruck below {@value #LONG_VECTOR} bytes in total, else ring; allgatherv: ring;</li>
 * <li>alltoall: Bruck for blocks up to {@value #SHORT_BLOCK} bytes with more than 2 members, else pairwise
 * exchange; alltoallv/w: pairwise exchange.</li>
 * </ul>
 */
public final class Algorithms {
    /** From here on, bandwidth matters more than the number of steps (MPICH's long-message threshold). */
    static final long LONG_VECTOR = 64 * 1024;
    /**
     * From here on a broadcast is worth splitting among the members (MPICH waits until 512 KiB; splitting sooner
     * keeps all links busy for the 100 000-int messages programs like to broadcast).
     */
    static final long LONG_MESSAGE = 256 * 1024;
    /** Blocks up to this size are worth packing together (Bruck's alltoall). */
    static final long SHORT_BLOCK = 256;

    private Algorithms() {
    }

    static void barrier(Schedule s, Device device, Members m) {
        if (Hierarchy.spansSeveral(device, m)) {
            HierarchicalBarrier.append(s, device, m);
        } else {
            DisseminationBarrier.append(s, m);
        }
    }

    static void bcast(Schedule s, Device device, Members m, MemorySegment data, int root) {
        if (data.byteSize() == 0) {
            return; // every member agrees on the count, so every member skips
        }
        if (Hierarchy.spansSeveral(device, m)) {
            HierarchicalBcast.append(s, device, m, data, root);
        } else if (data.byteSize() >= LONG_MESSAGE && m.size() > 2) {
            ScatterAllgatherBcast.append(s, m, data, root);
        } else {
            BinomialBcast.append(s, m, data, root);
        }
    }

    static void reduce(Schedule s, Device device, Members m, MemorySegment send, MemorySegment recv, int count,
                       Reduction op, int root) {
        if (send.byteSize() == 0) {
            return;
        }
        if (!op.commutative()) {
            OrderedLinearReduce.append(s, m, send, recv, count, op.combiner(), root);
        } else if (Hierarchy.spansSeveral(device, m)) {
            HierarchicalReduce.append(s, device, m, send, recv, count, op.combiner(), root);
        } else {
            BinomialReduce.append(s, m, send, recv, count, op.combiner(), root);
        }
    }

    static void allreduce(Schedule s, Device device, Members m, MemorySegment send, MemorySegment recv, int count,
                          int itemBytes, Reduction op) {
        if (send.byteSize() == 0) {
            return;
        }
        if (!op.commutative()) {
            RecursiveDoublingAllreduce.append(s, m, send, recv, count, op.combiner());
        } else if (Hierarchy.spansSeveral(device, m)) {
            HierarchicalAllreduce.append(s, device, m, send, recv, count, op.combiner());
        } else if (send.byteSize() >= LONG_VECTOR && RabenseifnerAllreduce.fits(count, m.size())) {
            RabenseifnerAllreduce.append(s, m, send, recv, count, itemBytes, op.combiner());
        } else {
            RecursiveDoublingAllreduce.append(s, m, send, recv, count, op.combiner());
        }
    }

    /**
     * Blocks of {@code blockBytes} in {@code recv}; {@code mine} (at most a block) is this member's data,
     * {@code null}: in place, this member's block is already in {@code recv}. The algorithm goes by the receive
     * blocks, which all members agree on.
     */
    static void allgather(Schedule s, Members m, MemorySegment mine, MemorySegment recv, long blockBytes) {
        if (blockBytes == 0) {
            return;
        }
        if (blockBytes * m.size() < LONG_VECTOR && m.size() > 2) {
            MemorySegment own = mine != null ? mine : recv.asSlice(m.me() * blockBytes, blockBytes);
            BruckAllgather.append(s, m, own, recv, blockBytes);
        } else {
            RingAllgather.append(s, m, mine, Blocks.equal(recv, m.size(), blockBytes), Fill.UP_TO);
        }
    }

    /** Blocks of {@code sendBlock} bytes in {@code send} to blocks of {@code recvBlock} (no fewer) in {@code recv}. */
    static void alltoall(Schedule s, Members m, MemorySegment send, MemorySegment recv, long sendBlock,
                         long recvBlock) {
        if (recvBlock == 0) {
            return;
        }
        if (recvBlock <= SHORT_BLOCK && m.size() > 2) {
            BruckAlltoall.append(s, m, send, recv, sendBlock, recvBlock);
        } else {
            PairwiseAlltoall.append(s, m, Blocks.equal(send, m.size(), sendBlock),
                    Blocks.equal(recv, m.size(), recvBlock));
        }
    }
}
