package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.coll.DecidedOnce;
import org.weft.core.coll.Reduction;
import org.weft.core.coll.StandIn;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;

/**
 * The collectives of one intracommunicator that go through its shared segment ({@link CommSegment}) when every member
 * is on this host and reached through shared memory: barrier, and reductions (reduce_scatter_block: all its blocks)
 * whose data fits a slot, blocking or not (nonblocking: {@link SharedSchedules}, once a blocking call made the
 * segment); blocking reductions of any larger size, in chunks ({@link ChunkedReductions}); bcast, allgather,
 * gather, scatter and alltoall of any size, blocking or not (data over a slot goes by messages, as its sender
 * records: {@link BlockExchanges}, {@link SharedBlockSchedules}; a blocking bcast's, gather's or scatter's by
 * copies between the members' native buffers instead, {@link PeerCopies}). Each method returns false,
 * having done nothing, when the call keeps the schedules; the choice depends only on what every member knows alike (the
 * communicator; for a reduction the byte count, which signature matching makes equal), so all members choose the same.
 * The segment is made at the first such call ({@link SegmentSetup}), whatever its size.
 *
 * <p>Algorithms, for {@code n} members and operation {@code s} (phases: {@link CommSegment}):
 * <ul>
 *   <li>barrier: each publishes {@code 2s} and waits for all to reach it;</li>
 *   <li>bcast: the root copies its data into its slot and publishes {@code 2s}; the others wait for it, copy out
 *       and publish {@code 2s};</li>
 *   <li>reduce: each copies its data into its slot; the others publish {@code 2s}, the root {@code 2s - 1}, waits
 *       for all to reach {@code 2s - 1} and combines the slots into its receive buffer;</li>
 *   <li>allreduce: each copies its data into its slot, publishes {@code 2s - 1}, waits for all, combines the
 *       slots into its receive buffer and publishes {@code 2s}.</li>
 * </ul>
 * Slots are combined in rank order on every rank ({@code c0 op (c1 op (… c(n-1)))}), so every member of an
 * allreduce gets the same bits, and a non-commutative operation's order holds.
 */
public final class SharedCollectives {
    private final Communicator comm;
    private final ArrayViews views = new ArrayViews();
    private final BlockExchanges blocks;
    private final ChunkedReductions chunked;
    /** Where a reduction in chunks receives when this rank's receive buffer cannot ({@link StandIn}). */
    private final StandIn standIns = new StandIn();
    /** The segment, made at the communicator's first call that may use it ({@link SegmentSetup}). */
    private final DecidedOnce<CommSegment> segments;
    /** The numbers taken when this rank's last call chose the segment ({@link #chosen}); -1 before the first. */
    private long takenBefore = -1;
    /** The operations that last call runs (more than one: a reduction in chunks). */
    private long operationsBefore = 1;

    public SharedCollectives(Communicator comm) {
        this.comm = comm;
        this.blocks = new BlockExchanges(comm.rank(), views);
        this.segments = new DecidedOnce<>(() -> SegmentSetup.setUp(comm), CommSegment::close);
        this.chunked = new ChunkedReductions(comm.rank());
    }

    /** {@code MPI_Barrier} through the segment; false if this communicator keeps the schedules. */
    public boolean barrier() {
        if (!ready()) {
            return false;
        }
        CommSegment seg = chosen();
        long s = seg.next();
        seg.publish(2 * s);
        seg.awaitAll(2 * s);
        return true;
    }

    /** {@code MPI_Bcast} through the segment, whatever its size; false if this communicator keeps the schedules. */
    public boolean bcast(Object buf, int count, TypeDescriptor type, int root) {
        if (bytes(count, type) < 0 || !ready()) {
            return false;
        }
        blocks.bcast(chosen(), buf, count, type, root);
        return true;
    }

    /**
     * {@code MPI_Reduce} through the segment ({@code sendbuf == null} at the root: in place); false if it keeps the
     * schedules.
     */
    public boolean reduce(Object sendbuf, Object recvbuf, int count, TypeDescriptor type, Reduction op, int root) {
        long bytes = bytes(count, type);
        boolean large = chunks(bytes, type);
        if (!large && !fits(bytes)) {
            return false;
        }
        CommSegment seg = chosen(large ? ChunkedReductions.reduceOperations(segment(), count, type.byteSize()) : 1);
        boolean isRoot = comm.rank() == root;
        boolean staged = isRoot && BufferMapping.needsFinish(recvbuf, type);
        MemorySegment recv = isRoot ? blocks.receiving(recvbuf, count, type, staged) : null;
        MemorySegment send = sendbuf == null && isRoot ? recv : blocks.sending(sendbuf, count, type);
        if (large) {
            chunked.reduce(seg, send, recv, count, type.byteSize(), op.combiner(), root);
            BlockExchanges.finish(recvbuf, count, type, recv, staged);
            return true;
        }
        long s = seg.writeAhead(send, 0, bytes); // the leaves go on: the root reads their slots later
        if (isRoot) {
            combineAll(seg, s, recvbuf, recv, count, type, op, staged);
        } else {
            seg.publish(2 * s);
        }
        return true;
    }

    /** {@code MPI_Allreduce} through the segment ({@code sendbuf == null}: in place); false if it keeps the schedules. */
    public boolean allReduce(Object sendbuf, Object recvbuf, int count, TypeDescriptor type, Reduction op) {
        long bytes = bytes(count, type);
        boolean large = chunks(bytes, type);
        if (!large && !fits(bytes)) {
            return false;
        }
        CommSegment seg = chosen(large ? ChunkedReductions.allReduceOperations(segment(), count, type.byteSize()) : 1);
        boolean staged = BufferMapping.needsFinish(recvbuf, type);
        MemorySegment recv;
        try {
            recv = blocks.receiving(recvbuf, count, type, staged);
        } catch (DeviceException e) {
            Object standIn = standIn(e, count, type);
            allReduced(seg, large, StandIn.input(sendbuf, recvbuf, count, type, e), standIn, received(standIn, count,
                    type), count, type, op);
            throw e;
        }
        allReduced(seg, large, sendbuf, recvbuf, recv, count, type, op);
        return true;
    }

    /** The allreduce through {@code seg} once its receive buffer is mapped ({@code recv}). */
    private void allReduced(CommSegment seg, boolean large, Object sendbuf, Object recvbuf, MemorySegment recv,
                            int count, TypeDescriptor type, Reduction op) {
        boolean staged = BufferMapping.needsFinish(recvbuf, type);
        MemorySegment send = sendbuf == null ? recv : blocks.sending(sendbuf, count, type);
        if (large) {
            chunked.allReduce(seg, send, recv, count, type.byteSize(), op.combiner());
            BlockExchanges.finish(recvbuf, count, type, recv, staged);
            return;
        }
        combineAll(seg, seg.write(send, 0, (long) count * type.byteSize()), recvbuf, recv, count, type, op, staged);
    }

    /**
     * {@code MPI_Reduce_scatter_block} through the segment when every rank's {@code n} blocks fit a slot
     * ({@code sendbuf == null}: in place, the input in {@code recvbuf}); false if it keeps the schedules. Each copies
     * its blocks into its slot, publishes {@code 2s - 1}, waits for all, combines block {@code me} of every slot in
     * rank order into its receive buffer and publishes {@code 2s}.
     */
    public boolean reduceScatterBlock(Object sendbuf, Object recvbuf, int count, TypeDescriptor type, Reduction op) {
        long block = bytes(count, type);
        int n = comm.size();
        boolean large = chunks(block * n, type);
        if (!large && !fits(block * n)) {
            return false;
        }
        CommSegment seg = chosen(large ? ChunkedReductions.scatterOperations(segment(), count, type.byteSize()) : 1);
        boolean staged = BufferMapping.needsFinish(recvbuf, type);
        MemorySegment recv;
        try {
            recv = blocks.receiving(recvbuf, count, type, staged);
        } catch (DeviceException e) { // as allReduce's
            Object standIn = standIn(e, count, type);
            scatteredBlocks(seg, large, StandIn.input(sendbuf, recvbuf, n * count, type, e), standIn,
                    received(standIn, count, type), count, type, op);
            throw e;
        }
        scatteredBlocks(seg, large, sendbuf == null ? recvbuf : sendbuf, recvbuf, recv, count, type, op);
        return true;
    }

    /** The reduce_scatter_block through {@code seg} of {@code n} blocks in {@code input} into {@code recv}. */
    private void scatteredBlocks(CommSegment seg, boolean large, Object input, Object recvbuf, MemorySegment recv,
                                 int count, TypeDescriptor type, Reduction op) {
        int n = comm.size();
        long block = (long) count * type.byteSize();
        boolean staged = BufferMapping.needsFinish(recvbuf, type);
        MemorySegment send = blocks.sending(input, n * count, type);
        if (large) {
            chunked.reduceScatterBlock(seg, send, recv, count, type.byteSize(), op.combiner());
        } else {
            long s = seg.write(send, 0, block * n);
            seg.publish(2 * s - 1);
            seg.awaitAll(2 * s - 1);
            SharedSchedules.combineSlots(seg, s, comm.rank(), block, recv, count, op.combiner());
            seg.publish(2 * s);
        }
        BlockExchanges.finish(recvbuf, count, type, recv, staged);
    }

    /**
     * Where a reduction that every member combines into receives at this rank when its own receive buffer cannot
     * ({@code e}: read-only or too short; any other error is thrown): a stand-in. A rank that stopped there would
     * leave the others combining a stale slot of its — a wrong result, not an error — or waiting for its share of a
     * chunk; it runs the call through the stand-in instead, and raises {@code e} after.
     */
    private Object standIn(DeviceException e, int count, TypeDescriptor type) {
        if (e.errorClass() != ErrorClass.ERR_BUFFER) {
            throw e;
        }
        return standIns.of(count, type);
    }

    private MemorySegment received(Object standIn, int count, TypeDescriptor type) {
        return blocks.receiving(standIn, count, type, BufferMapping.needsFinish(standIn, type));
    }

    /**
     * The segment when a nonblocking collective of {@code bytes} per rank may go through it: it is there already
     * (made by an earlier blocking call — a nonblocking call must not wait for the others to make it, and every
     * member has made the same calls before, so all choose alike) and the bytes fit a slot; else {@code null}.
     */
    private CommSegment forNonblocking(long bytes) {
        CommSegment segment = segments.made();
        return segment != null && bytes >= 0 && bytes <= segment.slotBytes() ? segment : null;
    }

    /**
     * Whether a nonblocking reduction of {@code bytes} per rank (or a barrier: 0) goes through the segment; if so the
     * call is one that chose it ({@link #chosen}), before its buffers are checked.
     */
    public boolean takesNonblocking(long bytes) {
        if (forNonblocking(bytes) == null) {
            return false;
        }
        chosen();
        return true;
    }

    /** Appends {@code MPI_Ibarrier} through the segment to {@code plan} (after {@link #takesNonblocking}). */
    public void iBarrier(Schedule plan) {
        SharedSchedules.barrier(segment(), plan);
    }

    /**
     * Appends {@code MPI_Iallreduce} ({@code root < 0}) or {@code MPI_Ireduce} through the segment to {@code plan}
     * (after {@link #takesNonblocking}); {@code recv} matters at the reducers only.
     */
    public void iReduce(Schedule plan, MemorySegment send, MemorySegment recv, int count, Reduction op, int root) {
        SharedSchedules.reduce(segment(), plan, send, recv, count, op.combiner(), root, comm.rank());
    }

    /** Appends {@code MPI_Ireduce_scatter_block} through the segment (after {@link #takesNonblocking} of all blocks). */
    public void iReduceScatterBlock(Schedule plan, MemorySegment send, MemorySegment recv, int count, Reduction op) {
        SharedSchedules.reduceScatterBlock(segment(), plan, send, recv, count, op.combiner(), comm.rank());
    }

    /**
     * Whether a nonblocking bcast, gather, scatter, allgather or alltoall goes through the segment: it is there
     * (made by an earlier blocking call, as for {@link #takesNonblocking}); data of any size, as the blocking forms.
     * If so the call is one that chose it, as for {@link #takesNonblocking}.
     */
    public boolean takesNonblockingBlocks() {
        if (segments.made() == null) {
            return false;
        }
        chosen();
        return true;
    }

    /** Appends {@code MPI_Ibcast} of {@code data} from {@code root} (after {@link #takesNonblockingBlocks}). */
    public void iBcast(Schedule plan, MemorySegment data, int root) {
        SharedBlockSchedules.bcast(segment(), plan, data, root, comm.rank());
    }

    /**
     * Appends {@code MPI_Igather} of {@code mine} ({@code null} at the root: in place) into blocks of {@code block}
     * bytes of {@code recv} at {@code root} (after {@link #takesNonblockingBlocks}).
     */
    public void iGather(Schedule plan, MemorySegment mine, MemorySegment recv, long block, int root) {
        SharedBlockSchedules.gather(segment(), plan, mine, recv, block, root, comm.rank());
    }

    /**
     * Appends {@code MPI_Iscatter} of blocks of {@code block} bytes of {@code send} from {@code root} into
     * {@code mine} ({@code null} at the root: in place) (after {@link #takesNonblockingBlocks}).
     */
    public void iScatter(Schedule plan, MemorySegment send, long block, MemorySegment mine, int root) {
        SharedBlockSchedules.scatter(segment(), plan, send, block, mine, root, comm.rank());
    }

    /**
     * Appends {@code MPI_Iallgather} of {@code mine} ({@code null}: in place) into blocks of {@code block} bytes of
     * {@code recv} (after {@link #takesNonblockingBlocks}).
     */
    public void iAllGather(Schedule plan, MemorySegment mine, MemorySegment recv, long block) {
        long offset = mine == null ? comm.rank() * block : 0;
        MemorySegment from = mine == null ? recv : mine;
        SharedBlockSchedules.allGather(segment(), plan, from, offset, mine == null ? block : mine.byteSize(), recv,
                block, mine == null, comm.rank());
    }

    /** Appends {@code MPI_Ialltoall} (after {@link #takesNonblockingBlocks}). */
    public void iAllToAll(Schedule plan, MemorySegment send, long sendBlock, MemorySegment recv, long recvBlock) {
        SharedBlockSchedules.allToAll(segment(), plan, send, sendBlock, recv, recvBlock, comm.rank());
    }

    /** {@code MPI_Allgather} ({@code sendbuf == null}: in place); false if it keeps the schedules. */
    public boolean allGather(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                             TypeDescriptor recvtype) {
        long block = bytes(recvcount, recvtype);
        if (block < 0 || (sendbuf != null && bytes(sendcount, sendtype) < 0) || !ready()) {
            return false;
        }
        blocks.allGather(chosen(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, block);
        return true;
    }

    /** {@code MPI_Gather} ({@code sendbuf == null} at the root: in place); false if it keeps the schedules. */
    public boolean gather(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                          TypeDescriptor recvtype, int root) {
        boolean isRoot = comm.rank() == root;
        if ((isRoot ? bytes(recvcount, recvtype) : bytes(sendcount, sendtype)) < 0 || !ready()) {
            return false;
        }
        blocks.gather(chosen(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
        return true;
    }

    /** {@code MPI_Scatter} ({@code recvbuf == null} at the root: in place); false if it keeps the schedules. */
    public boolean scatter(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                           TypeDescriptor recvtype, int root) {
        boolean isRoot = comm.rank() == root;
        if ((isRoot ? bytes(sendcount, sendtype) : bytes(recvcount, recvtype)) < 0 || !ready()) {
            return false;
        }
        blocks.scatter(chosen(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
        return true;
    }

    /** {@code MPI_Alltoall} (not in place); false if it keeps the schedules. */
    public boolean allToAll(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                            TypeDescriptor recvtype) {
        if (sendbuf == null || bytes(sendcount, sendtype) < 0 || bytes(recvcount, recvtype) < 0 || !ready()) {
            return false;
        }
        blocks.allToAll(chosen(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
        return true;
    }

    /** Bytes of {@code count} items; negative for a negative count (the schedules' path raises the error). */
    private static long bytes(int count, TypeDescriptor type) {
        return (long) count * TypeDescriptor.check(type).byteSize();
    }

    /**
     * Whether a blocking reduction of {@code bytes} per rank goes through the segment in chunks
     * ({@link ChunkedReductions}): the segment is there (made now at the communicator's first call), the bytes do
     * not fit a slot, and a chunk holds an item per member. Every member decides alike: a reduction's count, type
     * and communicator are the same at all.
     */
    private boolean chunks(long bytes, TypeDescriptor type) {
        return ready() && bytes > segment().slotBytes()
                && ChunkedReductions.shareItems(segment(), type.byteSize()) > 0;
    }

    /** Whether the segment is there (made now at the communicator's first call) and {@code bytes} fit a slot. */
    private boolean fits(long bytes) {
        return bytes >= 0 && ready() && bytes <= segment().slotBytes();
    }

    /** Unmaps the segment: the communicator was freed. */
    public void close() {
        segments.close();
        views.clear();
        chunked.clear();
    }

    /**
     * Publishes this rank's contribution to operation {@code s}, waits for every member's and combines them into
     * {@code recv} ({@code recv = slot(0) op (slot(1) op (… slot(n-1)))}), then unpacks a staged result into
     * {@code recvbuf}.
     */
    private static void combineAll(CommSegment seg, long s, Object recvbuf, MemorySegment recv, int count,
                                   TypeDescriptor type, Reduction op, boolean staged) {
        seg.publish(2 * s - 1);
        seg.awaitAll(2 * s - 1);
        SharedSchedules.combineSlots(seg, s, -1, 0, recv, count, op.combiner());
        seg.publish(2 * s);
        BlockExchanges.finish(recvbuf, count, type, recv, staged);
    }

    /** Whether the segment is there, made now if this is the communicator's first such call. */
    private boolean ready() {
        return segments.get() != null;
    }

    /** The segment, after {@link #ready} or {@link #takesNonblocking} said it is there. */
    private CommSegment segment() {
        return segments.made();
    }

    /**
     * The segment for a call that goes through it. Every such call runs at least one operation, so if the last one
     * took no number it raised an argument error first, and its number is taken now
     * ({@link CommSegment#skipIfNoneSince}): this rank numbers operations as the other members do.
     */
    private CommSegment chosen() {
        return chosen(1);
    }

    /**
     * As {@link #chosen()}, for a call that runs {@code operations} operations (a reduction in chunks: as many at
     * every member, from its count), all of which the others ran if this call raises an argument error first.
     */
    private CommSegment chosen(long operations) {
        CommSegment seg = segments.made();
        if (takenBefore >= 0) {
            seg.skipIfNoneSince(takenBefore, operationsBefore);
        }
        takenBefore = seg.taken();
        operationsBefore = operations;
        return seg;
    }
}
