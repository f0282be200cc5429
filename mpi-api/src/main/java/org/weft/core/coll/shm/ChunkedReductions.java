package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;

/**
 * The blocking reduce, allreduce and reduce_scatter_block of data larger than a slot, through the segment in chunks
 * (Open MPI's {@code coll/sm}, MPICH's release-gather): a reduce-scatter in shared memory per chunk, pipelined over
 * the slot sets, instead of the schedules' point-to-point rounds. For {@code n} members and items of {@code item}
 * bytes, a <em>share</em> is {@code S = slot / item / n} items and a chunk {@code n * S} items (the last chunk may be
 * shorter; a member whose share of it is empty combines nothing).
 * <ul>
 *   <li>reduce: a slot's items per chunk, which every member copies into its slot and the root combines
 *       ({@link #reduce});</li>
 *   <li>allreduce, chunk {@code k} in operations {@code s} and {@code t = s + 1}: each copies chunk
 *       {@code k} of its data into its slot of {@code s}, publishes {@code 2s - 1} and waits for all; each combines
 *       share {@code me} of every member's slot in rank order ({@code c0 op (c1 op …)}) into share {@code me} of its
 *       slot of {@code t} and publishes {@code 2t - 1}; every member copies every
 *       share of {@code t} out into their receive buffer once all reached {@code 2t - 1}. A reader copies chunk
 *       {@code k}'s results out after it has copied chunk {@code k + 1} in and before it publishes that, so its
 *       copy in overlaps the others' combining;</li>
 *   <li>reduce_scatter_block, chunk {@code k} (items {@code kS} to {@code (k + 1)S} of each block) in one operation
 *       {@code s}: each copies that piece of each of its {@code n} blocks into its slot (piece {@code b} at
 *       {@code b * S} items), publishes {@code 2s - 1}, waits for all, combines piece {@code me} of every slot in
 *       rank order straight into its receive buffer and publishes {@code 2s}.</li>
 * </ul>
 * Every member takes this path or none: the choice depends on the byte count, the item's size and the communicator,
 * which are the same at every member of a reduction (MPI: same count, type and op).
 */
final class ChunkedReductions {
    private final int me;
    /** The chunks of the last receive buffer a reduce combined into (apart: alternating calls keep both). */
    private final Chunks reduced = new Chunks();
    /** The chunks of the last receive buffer a reduce_scatter_block combined into. */
    private final Chunks scattered = new Chunks();

    ChunkedReductions(int me) {
        this.me = me;
    }

    /** The operations a reduce of {@code count} items of {@code item} bytes runs ({@link #reduce}). */
    static long reduceOperations(CommSegment seg, int count, long item) {
        long chunk = seg.slotBytes() / item;
        return (count + chunk - 1) / chunk;
    }

    /** The operations an allreduce of {@code count} items of {@code item} bytes runs: two a chunk. */
    static long allReduceOperations(CommSegment seg, int count, long item) {
        long chunk = shareItems(seg, item) * seg.ranks();
        return 2 * ((count + chunk - 1) / chunk);
    }

    /** The operations a reduce_scatter_block of blocks of {@code count} items of {@code item} bytes runs. */
    static long scatterOperations(CommSegment seg, int count, long item) {
        long share = shareItems(seg, item);
        return (count + share - 1) / share;
    }

    /** Items of a share for items of {@code item} bytes; 0 when a chunk cannot hold one item per member. */
    static long shareItems(CommSegment seg, long item) {
        return item <= 0 ? 0 : seg.slotBytes() / item / seg.ranks();
    }

    /**
     * {@code MPI_Reduce} to {@code root} of {@code count} items of {@code item} bytes from {@code send} into
     * {@code recv} (at the root; it may be {@code send}: in place), a slot's items per chunk, one operation each:
     * every member copies the chunk into its slot; a leaf publishes {@code 2s} and goes on (it waits only when it
     * runs {@link SegmentLayout#SETS} operations ahead of the root); the root publishes {@code 2s - 1}, waits for
     * all and combines the slots in rank order straight into its receive buffer. The leaves do not wait for each
     * other, as Open MPI's leaves do not wait for its root.
     */
    void reduce(CommSegment seg, MemorySegment send, MemorySegment recv, int count, long item, Combiner combiner,
                int root) {
        long chunk = seg.slotBytes() / item;
        MemorySegment[] into = me == root ? reduced.of(recv, chunk * item) : null;
        for (long at = 0, k = 0; at < count; at += chunk, k++) {
            long m = Math.min(chunk, count - at);
            long s = seg.write(send, at * item, m * item);
            if (me != root) {
                seg.publish(2 * s);
                continue;
            }
            seg.publish(2 * s - 1);
            seg.awaitAll(2 * s - 1);
            SharedSchedules.combineSlots(seg, s, -1, 0, into[(int) k], (int) m, combiner);
            seg.publish(2 * s);
        }
    }

    /**
     * {@code MPI_Allreduce} of {@code count} items of {@code item} bytes from {@code send} into {@code recv} (it may
     * be {@code send}: in place).
     */
    void allReduce(CommSegment seg, MemorySegment send, MemorySegment recv, int count, long item,
                   Combiner combiner) {
        int n = seg.ranks();
        long share = shareItems(seg, item);
        long chunk = share * n;
        long last = 0; // operation t of the chunk before, whose results are still to be copied out
        for (long at = 0; at < count; at += chunk) {
            long m = Math.min(chunk, count - at);
            long s = seg.write(send, at * item, m * item);
            if (last > 0) {
                copyResults(seg, last, recv, at - chunk, chunk, share, item);
            }
            seg.publish(2 * s - 1);
            seg.awaitAll(2 * s - 1);
            long t = seg.next();
            seg.beforeWriting(t);
            long mine = Math.max(0, Math.min(share, m - me * share));
            if (mine > 0) {
                MemorySegment out = seg.block(t, me, me, share * item);
                SharedSchedules.combineSlots(seg, s, me, share * item, out, (int) mine, combiner);
            }
            seg.publish(2 * t - 1);
            last = t;
            if (at + chunk >= count) {
                copyResults(seg, t, recv, at, m, share, item);
                seg.publish(2 * t);
            }
        }
    }

    /**
     * Once every member published its share of operation {@code t}, copies the shares, {@code m} items of the
     * result from item {@code at} on, out of their slots into {@code recv}.
     */
    private static void copyResults(CommSegment seg, long t, MemorySegment recv, long at, long m, long share,
                                    long item) {
        seg.awaitAll(2 * t - 1);
        for (int r = 0; r < seg.ranks(); r++) {
            long items = Math.min(share, m - r * share);
            if (items > 0) {
                MemorySegment.copy(seg.slot(t, r), r * share * item, recv, (at + r * share) * item, items * item);
            }
        }
    }

    /**
     * {@code MPI_Reduce_scatter_block} of {@code n} blocks of {@code count} items of {@code item} bytes in
     * {@code send} (in place: the receive buffer), block {@code me}'s result into {@code recv}.
     */
    void reduceScatterBlock(CommSegment seg, MemorySegment send, MemorySegment recv, int count, long item,
                            Combiner combiner) {
        int n = seg.ranks();
        long share = shareItems(seg, item);
        MemorySegment[] into = scattered.of(recv, share * item);
        for (long at = 0, k = 0; at < count; at += share, k++) {
            long m = Math.min(share, count - at);
            long s = seg.next();
            seg.beforeWriting(s);
            MemorySegment slot = seg.slot(s, me);
            for (int b = 0; b < n; b++) {
                MemorySegment.copy(send, ((long) b * count + at) * item, slot, b * share * item, m * item);
            }
            seg.publish(2 * s - 1);
            seg.awaitAll(2 * s - 1);
            SharedSchedules.combineSlots(seg, s, me, share * item, into[(int) k], (int) m, combiner);
            seg.publish(2 * s);
        }
    }

    /** Forgets the last receive buffers (the communicator was freed). */
    void clear() {
        reduced.clear();
        scattered.clear();
    }

    /**
     * A buffer cut into chunks, kept while the same buffer is cut the same way again, so that a repeated call on the
     * same array slices nothing.
     */
    private static final class Chunks {
        private MemorySegment buffer;
        private long bytes;
        private MemorySegment[] slices = new MemorySegment[0];

        /** {@code of} cut into slices of {@code chunk} bytes (the last one shorter). */
        MemorySegment[] of(MemorySegment of, long chunk) {
            if (of != buffer || chunk != bytes) {
                int k = (int) ((of.byteSize() + chunk - 1) / chunk);
                MemorySegment[] cut = new MemorySegment[k];
                for (int i = 0; i < k; i++) {
                    cut[i] = of.asSlice(i * chunk, Math.min(chunk, of.byteSize() - i * chunk));
                }
                slices = cut;
                buffer = of;
                bytes = chunk;
            }
            return slices;
        }

        void clear() {
            buffer = null;
            slices = new MemorySegment[0];
        }
    }
}
