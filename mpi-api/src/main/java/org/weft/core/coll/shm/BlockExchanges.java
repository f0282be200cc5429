package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * The blocking allgather, gather, scatter and alltoall through a communicator's segment ({@link CommSegment}),
 * for {@link SharedCollectives}, which has checked that the segment is there and the blocks fit a slot. Each rank
 * records how long its data is ({@link CommSegment#setLength}): a block takes what its sender sent, up to the
 * block's size, as the schedules' receives do; longer data is {@code ERR_TRUNCATE}, raised after the operation has
 * run to its end so that the other members are not left waiting.
 * <ul>
 *   <li>allgather: each copies its block into its slot and publishes {@code 2s - 1}; all wait for all, copy every
 *       slot into place and publish {@code 2s};</li>
 *   <li>gather: each copies its block into its slot and publishes {@code 2s}; the root publishes {@code 2s - 1},
 *       waits for all and copies the slots into place;</li>
 *   <li>scatter: the root copies block {@code r} into rank {@code r}'s slot and publishes {@code 2s}; the others
 *       wait for it and copy their slot out;</li>
 *   <li>alltoall: each copies its {@code n} blocks into its slot and publishes {@code 2s - 1}; all wait for all
 *       and copy block {@code me} of every slot into place.</li>
 * </ul>
 */
final class BlockExchanges {
    private final int me;
    private final ArrayViews views;

    BlockExchanges(int me, ArrayViews views) {
        this.me = me;
        this.views = views;
    }

    /** {@code MPI_Allgather} of blocks of {@code block} bytes; {@code sendbuf == null}: in place. */
    void allGather(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                   int recvcount, TypeDescriptor recvtype, long block) {
        int n = seg.ranks();
        boolean staged = BufferMapping.needsFinish(recvbuf, recvtype);
        MemorySegment recv = receiving(recvbuf, n * recvcount, recvtype, staged);
        MemorySegment mine = sendbuf == null ? recv : sending(sendbuf, sendcount, sendtype);
        long offset = sendbuf == null ? me * block : 0;
        long bytes = sendbuf == null ? block : checkFits(mine.byteSize(), block);
        long s = seg.write(mine, offset, bytes);
        seg.setLength(s, bytes);
        seg.publish(2 * s - 1);
        seg.awaitAll(2 * s - 1);
        long longest = 0;
        for (int r = 0; r < n; r++) {
            longest = Math.max(longest, copyOut(seg, s, r, 0, recv, r * block, block));
        }
        seg.publish(2 * s);
        finish(recvbuf, n * recvcount, recvtype, recv, staged);
        checkFits(longest, block);
    }

    /** {@code MPI_Gather} to {@code root} of blocks of {@code block} bytes; at the root {@code sendbuf == null}: in place. */
    void gather(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                int recvcount, TypeDescriptor recvtype, int root) {
        int n = seg.ranks();
        if (me != root) {
            MemorySegment mine = sending(sendbuf, sendcount, sendtype);
            long s = seg.write(mine, 0, mine.byteSize());
            seg.setLength(s, mine.byteSize());
            seg.publish(2 * s);
            return;
        }
        long block = (long) recvcount * recvtype.byteSize();
        boolean staged = BufferMapping.needsFinish(recvbuf, recvtype);
        MemorySegment recv = receiving(recvbuf, n * recvcount, recvtype, staged);
        MemorySegment mine = sendbuf == null ? null : sending(sendbuf, sendcount, sendtype);
        if (mine != null) {
            MemorySegment.copy(mine, 0, recv, root * block, checkFits(mine.byteSize(), block));
        }
        long s = seg.next();
        seg.publish(2 * s - 1);
        seg.awaitAll(2 * s - 1);
        long longest = 0;
        for (int r = 0; r < n; r++) {
            if (r != root) {
                longest = Math.max(longest, copyOut(seg, s, r, 0, recv, r * block, block));
            }
        }
        seg.publish(2 * s);
        finish(recvbuf, n * recvcount, recvtype, recv, staged);
        checkFits(longest, block);
    }

    /** {@code MPI_Scatter} from {@code root} of blocks of {@code block} bytes; at the root {@code recvbuf == null}: in place. */
    void scatter(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                 int recvcount, TypeDescriptor recvtype, int root) {
        int n = seg.ranks();
        if (me == root) {
            long block = (long) sendcount * sendtype.byteSize();
            MemorySegment send = sending(sendbuf, n * sendcount, sendtype);
            boolean staged = recvbuf != null && BufferMapping.needsStaging(recvbuf, recvtype);
            MemorySegment mine = recvbuf == null ? null : staged ? BufferMapping.forReceive(recvbuf, recvcount,
                    recvtype) : views.view(recvbuf, recvcount, recvtype, true);
            if (mine != null) {
                MemorySegment.copy(send, root * block, mine, 0, checkFits(block, mine.byteSize()));
                if (staged) {
                    BufferMapping.finishReceive(recvbuf, recvcount, recvtype, mine, block);
                }
            }
            long s = seg.next();
            seg.beforeWriting(s);
            for (int r = 0; r < n; r++) {
                if (r != root) {
                    MemorySegment.copy(send, r * block, seg.slot(s, r), 0, block);
                }
            }
            seg.setLength(s, block);
            seg.publish(2 * s);
            return;
        }
        long room = (long) recvcount * recvtype.byteSize();
        boolean staged = BufferMapping.needsStaging(recvbuf, recvtype);
        MemorySegment recv = staged ? BufferMapping.forSend(recvbuf, recvcount, recvtype)
                : views.view(recvbuf, recvcount, recvtype, true);
        long s = seg.next();
        seg.awaitRank(root, 2 * s);
        long sent = seg.length(root, s); // the root put this rank's block in this rank's slot
        MemorySegment.copy(seg.slot(s, me), 0, recv, 0, Math.min(sent, room));
        seg.publish(2 * s);
        finish(recvbuf, recvcount, recvtype, recv, staged);
        checkFits(sent, room);
    }

    /** {@code MPI_Alltoall} of blocks of {@code sendBlock} bytes into blocks of {@code recvBlock}. */
    void allToAll(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                  int recvcount, TypeDescriptor recvtype) {
        int n = seg.ranks();
        long sendBlock = (long) sendcount * sendtype.byteSize();
        long recvBlock = (long) recvcount * recvtype.byteSize();
        MemorySegment send = sending(sendbuf, n * sendcount, sendtype);
        boolean staged = BufferMapping.needsFinish(recvbuf, recvtype);
        MemorySegment recv = receiving(recvbuf, n * recvcount, recvtype, staged);
        checkFits(sendBlock, recvBlock);
        long s = seg.write(send, 0, n * sendBlock);
        seg.setLength(s, sendBlock);
        seg.publish(2 * s - 1);
        seg.awaitAll(2 * s - 1);
        long longest = 0;
        for (int r = 0; r < n; r++) {
            longest = Math.max(longest, copyOut(seg, s, r, me, recv, r * recvBlock, recvBlock));
        }
        seg.publish(2 * s);
        finish(recvbuf, n * recvcount, recvtype, recv, staged);
        checkFits(longest, recvBlock);
    }

    /**
     * Copies block {@code index} of {@code rank}'s slot (blocks as long as it recorded) to {@code to} at {@code at},
     * at most {@code room} bytes; returns the block's length.
     */
    private static long copyOut(CommSegment seg, long s, int rank, int index, MemorySegment to, long at, long room) {
        long length = seg.length(rank, s);
        MemorySegment.copy(seg.slot(s, rank), index * length, to, at, Math.min(length, room));
        return length;
    }

    private MemorySegment receiving(Object buffer, int count, TypeDescriptor type, boolean staged) {
        return staged ? BufferMapping.forSend(buffer, count, type) : views.view(buffer, count, type, true);
    }

    private MemorySegment sending(Object buffer, int count, TypeDescriptor type) {
        return BufferMapping.needsStaging(buffer, type) ? BufferMapping.forSend(buffer, count, type)
                : views.view(buffer, count, type, false);
    }

    private static void finish(Object buffer, int count, TypeDescriptor type, MemorySegment data, boolean staged) {
        if (staged) {
            BufferMapping.finishReceive(buffer, count, type, data, data.byteSize());
        }
    }

    /** {@code sent}, or {@code ERR_TRUNCATE} if it is longer than {@code room}. */
    private static long checkFits(long sent, long room) {
        if (sent > room) {
            throw MpiErrors.error(ErrorClass.ERR_TRUNCATE, "a block of " + sent + " bytes sent into a receive block"
                    + " of " + room + " bytes (do the send and receive counts and types agree?)");
        }
        return sent;
    }
}
