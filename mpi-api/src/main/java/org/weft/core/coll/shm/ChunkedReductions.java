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
 *   <li>allreduce and reduce, chunk {@code k} in operations {@code s} and {@code t = s + 1}: each copies chunk
 *       {@code k} of its data into its slot of {@code s}, publishes {@code 2s - 1} and waits for all; each combines
 *       share {@code me} of every member's slot in rank order ({@code c0 op (c1 op …)}) into share {@code me} of its
 *       slot of {@code t} and publishes {@code 2t - 1}; the readers (every member; reduce: the root) copy every
 *       share of {@code t} out into their receive buffer once all reached {@code 2t - 1}. A reader copies chunk
 *       {@code k}'s results out after it has copied chunk {@code k + 1} in and before it publishes that, so its
 *       copy in overlaps the others' combining, and a leaf of a reduce publishes {@code 2t} at once;</li>
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
    /** Slices of the last receive buffer a reduce_scatter_block combined into, one per chunk ({@link #chunks}). */
    private MemorySegment chunkedBuffer;
    private long chunkedBytes;
    private MemorySegment[] chunkSlices = new MemorySegment[0];

    ChunkedReductions(int me) {
        this.me = me;
    }

    /** Items of a share for items of {@code item} bytes; 0 when a chunk cannot hold one item per member. */
    static long shareItems(CommSegment seg, long item) {
        return item <= 0 ? 0 : seg.slotBytes() / item / seg.ranks();
    }

    /**
     * {@code MPI_Allreduce} ({@code root < 0}) or {@code MPI_Reduce} to {@code root} of {@code count} items of
     * {@code item} bytes from {@code send} into {@code recv} ({@code recv} matters at the readers only; it may be
     * {@code send}: in place).
     */
    void reduce(CommSegment seg, MemorySegment send, MemorySegment recv, int count, long item, Combiner combiner,
                int root) {
        int n = seg.ranks();
        long share = shareItems(seg, item);
        long chunk = share * n;
        boolean reads = root < 0 || root == me;
        long last = 0; // operation t of the chunk before, whose results are still to be copied out
        for (long at = 0; at < count; at += chunk) {
            long m = Math.min(chunk, count - at);
            long s = seg.write(send, at * item, m * item);
            if (last > 0 && reads) {
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
            seg.publish(reads ? 2 * t - 1 : 2 * t);
            last = t;
            if (at + chunk >= count && reads) {
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
        MemorySegment[] into = chunks(recv, share * item);
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

    /**
     * {@code buffer} cut into slices of {@code bytes} (the last one shorter), kept while the same buffer is cut the
     * same way again, so that a repeated call on the same array slices nothing.
     */
    private MemorySegment[] chunks(MemorySegment buffer, long bytes) {
        if (buffer != chunkedBuffer || bytes != chunkedBytes) {
            int k = (int) ((buffer.byteSize() + bytes - 1) / bytes);
            MemorySegment[] slices = new MemorySegment[k];
            for (int i = 0; i < k; i++) {
                slices[i] = buffer.asSlice(i * bytes, Math.min(bytes, buffer.byteSize() - i * bytes));
            }
            chunkSlices = slices;
            chunkedBuffer = buffer;
            chunkedBytes = bytes;
        }
        return chunkSlices;
    }

    /** Forgets the last receive buffer (the communicator was freed). */
    void clear() {
        chunkedBuffer = null;
        chunkSlices = new MemorySegment[0];
    }
}
