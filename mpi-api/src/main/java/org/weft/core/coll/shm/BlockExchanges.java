package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * The blocking bcast, allgather, gather, scatter and alltoall through a communicator's segment ({@link CommSegment}),
 * for {@link SharedCollectives}, which has checked that the segment is there. Each rank records how long its data is
 * ({@link CommSegment#setLength}): a block takes what its sender sent, up to the block's size, as the schedules'
 * receives do; longer data is {@code ERR_TRUNCATE}, raised after the operation has run to its end so that the other
 * members are not left waiting. Data that does not fit a slot, in native memory, goes by peer copies between the
 * sender's and the receivers' buffers ({@link PeerCopies}: a bcast's and scatter's root, a gather's leaves record
 * {@link CommSegment#BY_PEER_COPY}); other data that does not fit a slot goes by point-to-point messages under the
 * call's tag and its sender records {@link CommSegment#BY_MESSAGE} instead of a length, so its readers receive it
 * (over shm, large data between native buffers is read once out of the sender's memory). Which way a rank's data
 * goes is its sender's choice alone and every reader follows it, so counts that differ between ranks (erroneous, or
 * short blocks) never leave ranks on different paths waiting for each other. A bcast's or scatter's reader whose
 * buffer is larger than a slot offers it for peer copies before it knows the root's choice ({@link #offerEarly}).
 * <ul>
 *   <li>bcast: the root copies its data into its slot and publishes {@code 2s}; the others wait for it, copy out
 *       and publish {@code 2s};</li>
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

    /** {@code MPI_Bcast} of {@code count} items from {@code root}. */
    void bcast(CommSegment seg, Object buf, int count, TypeDescriptor type, int root) {
        int tag = seg.tag();
        long room = (long) count * type.byteSize();
        boolean staged = BufferMapping.needsStaging(buf, type);
        if (me == root) {
            MemorySegment data = staged ? BufferMapping.forSend(buf, count, type) : views.view(buf, count, type, false);
            if (PeerCopies.offers(seg, data, room)) {
                giveToAll(seg, data, room, false);
                return;
            }
            long s = begin(seg, data, 0, room, true);
            seg.publish(2 * Math.abs(s));
            if (s < 0) {
                for (int r = 0; r < seg.ranks(); r++) {
                    if (r != root) {
                        seg.startSend(data, r, tag);
                    }
                }
                seg.awaitSends();
            }
            return;
        }
        MemorySegment data = staged ? BufferMapping.forReceive(buf, count, type) : views.view(buf, count, type, true);
        long s = seg.next();
        boolean offered = offerEarly(seg, s, data);
        seg.awaitRank(root, 2 * s - 1);
        long sent = seg.length(root, s);
        if (sent == CommSegment.BY_PEER_COPY) {
            sent = takeFrom(seg, s, root, 0, data, offered);
        } else if (sent == CommSegment.BY_MESSAGE) {
            seg.publish(2 * s);
            sent = seg.receive(data, root, tag);
        } else {
            copyOut(seg, s, root, 0, data, 0, room);
            seg.publish(2 * s);
        }
        if (staged) {
            BufferMapping.finishReceive(buf, count, type, data, Math.min(sent, room));
        }
        checkFits(sent, room);
    }

    /** {@code MPI_Allgather} of blocks of {@code block} bytes; {@code sendbuf == null}: in place. */
    void allGather(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                   int recvcount, TypeDescriptor recvtype, long block) {
        int n = seg.ranks();
        int tag = seg.tag();
        boolean staged = BufferMapping.needsFinish(recvbuf, recvtype);
        MemorySegment recv = receiving(recvbuf, n * recvcount, recvtype, staged);
        MemorySegment from = sendbuf == null ? recv : sending(sendbuf, sendcount, sendtype);
        long offset = sendbuf == null ? me * block : 0;
        long bytes = sendbuf == null ? block : from.byteSize();
        boolean offered = PeerCopies.offers(seg, from, bytes);
        long s = offered ? offer(seg, from, offset, bytes) : begin(seg, from, offset, bytes, false);
        seg.publish(2 * Math.abs(s) - 1);
        if (s < 0) {
            startSendsToAll(seg, from.asSlice(offset, bytes), tag);
        }
        s = Math.abs(s);
        seg.awaitAll(2 * s - 1);
        long longest = sendbuf == null ? 0 : copyOwn(from, 0, bytes, recv, me * block, block);
        for (int r = 0; r < n; r++) {
            if (r != me) {
                longest = Math.max(longest, blockFrom(seg, s, r, 0, recv, r * block, block, tag));
            }
        }
        seg.awaitSends();
        done(seg, s, offered);
        finish(recvbuf, n * recvcount, recvtype, recv, staged);
        checkFits(longest, block);
    }

    /** {@code MPI_Gather} to {@code root}; at the root {@code sendbuf == null}: in place. */
    void gather(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                int recvcount, TypeDescriptor recvtype, int root) {
        int n = seg.ranks();
        int tag = seg.tag();
        if (me != root) {
            MemorySegment mine = sending(sendbuf, sendcount, sendtype);
            if (PeerCopies.offers(seg, mine, mine.byteSize())) {
                giveTo(seg, root, mine);
                return;
            }
            long s = begin(seg, mine, 0, mine.byteSize(), true);
            seg.publish(2 * Math.abs(s));
            if (s < 0) {
                seg.startSend(mine, root, tag);
                seg.awaitSends();
            }
            return;
        }
        long block = (long) recvcount * recvtype.byteSize();
        boolean staged = BufferMapping.needsFinish(recvbuf, recvtype);
        MemorySegment recv = receiving(recvbuf, n * recvcount, recvtype, staged);
        MemorySegment mine = sendbuf == null ? null : sending(sendbuf, sendcount, sendtype);
        long longest = mine == null ? 0 : copyOwn(mine, 0, mine.byteSize(), recv, root * block, block);
        long s = seg.next();
        seg.offer(recv, block); // for leaves whose blocks go by peer copies
        seg.publish(2 * s - 1);
        seg.awaitAll(2 * s - 1);
        for (int r = 0; r < n; r++) {
            if (r == root) {
                continue;
            }
            long taken = seg.length(r, s) == CommSegment.BY_PEER_COPY
                    ? PeerCopies.read(seg, s, r, 0, recv, r * block, block)
                    : blockFrom(seg, s, r, 0, recv, r * block, block, tag);
            longest = Math.max(longest, taken);
        }
        seg.publish(2 * s);
        for (int r = 0; r < n; r++) {
            if (r != root && seg.length(r, s) == CommSegment.BY_PEER_COPY) {
                seg.awaitRank(r, 2 * s); // it has written its part into the receive buffer
                PeerCopies.check(seg, s, r);
            }
        }
        finish(recvbuf, n * recvcount, recvtype, recv, staged);
        checkFits(longest, block);
    }

    /** {@code MPI_Scatter} from {@code root}; at the root {@code recvbuf == null}: in place. */
    void scatter(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                 int recvcount, TypeDescriptor recvtype, int root) {
        int n = seg.ranks();
        int tag = seg.tag();
        if (me == root) {
            scatterFromRoot(seg, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, tag);
            return;
        }
        long room = (long) recvcount * recvtype.byteSize();
        boolean staged = BufferMapping.needsStaging(recvbuf, recvtype);
        MemorySegment recv = staged ? BufferMapping.forUpdate(recvbuf, recvcount, recvtype)
                : views.view(recvbuf, recvcount, recvtype, true);
        long s = seg.next();
        boolean offered = offerEarly(seg, s, recv);
        seg.awaitRank(root, 2 * s - 1);
        long sent = seg.length(root, s); // the root put this rank's block in this rank's slot
        if (sent == CommSegment.BY_PEER_COPY) {
            sent = takeFrom(seg, s, root, me, recv, offered);
        } else if (sent == CommSegment.BY_MESSAGE) {
            seg.publish(2 * s);
            sent = seg.receive(recv, root, tag);
        } else {
            MemorySegment.copy(seg.slot(s, me), 0, recv, 0, Math.min(sent, room));
            seg.publish(2 * s);
        }
        finish(recvbuf, recvcount, recvtype, recv, staged);
        checkFits(sent, room);
    }

    private void scatterFromRoot(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                 Object recvbuf, int recvcount, TypeDescriptor recvtype, int tag) {
        int n = seg.ranks();
        long block = (long) sendcount * sendtype.byteSize();
        MemorySegment send = sending(sendbuf, n * sendcount, sendtype);
        long room = recvbuf == null ? block : (long) recvcount * recvtype.byteSize();
        if (recvbuf != null) {
            boolean staged = BufferMapping.needsStaging(recvbuf, recvtype);
            MemorySegment mine = staged ? BufferMapping.forReceive(recvbuf, recvcount, recvtype)
                    : views.view(recvbuf, recvcount, recvtype, true);
            copyOwn(send, me * block, block, mine, 0, room);
            if (staged) {
                BufferMapping.finishReceive(recvbuf, recvcount, recvtype, mine, Math.min(block, room));
            }
        }
        if (PeerCopies.offers(seg, send, block)) {
            giveToAll(seg, send, block, true);
            checkFits(block, room);
            return;
        }
        boolean fits = block <= seg.slotBytes();
        long s = seg.beginForAll(block);
        for (int r = 0; r < n && fits; r++) {
            if (r != me) {
                MemorySegment.copy(send, r * block, seg.slot(s, r), 0, block);
            }
        }
        seg.setLength(s, fits ? block : CommSegment.BY_MESSAGE);
        seg.publish(2 * s);
        if (!fits) {
            for (int r = 0; r < n; r++) {
                if (r != me) {
                    seg.startSend(send.asSlice(r * block, block), r, tag);
                }
            }
            seg.awaitSends();
        }
        checkFits(block, room);
    }

    /** {@code MPI_Alltoall} of blocks of {@code sendBlock} bytes into blocks of {@code recvBlock}. */
    void allToAll(CommSegment seg, Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf,
                  int recvcount, TypeDescriptor recvtype) {
        int n = seg.ranks();
        int tag = seg.tag();
        long sendBlock = (long) sendcount * sendtype.byteSize();
        long recvBlock = (long) recvcount * recvtype.byteSize();
        MemorySegment send = sending(sendbuf, n * sendcount, sendtype);
        boolean staged = BufferMapping.needsFinish(recvbuf, recvtype);
        MemorySegment recv = receiving(recvbuf, n * recvcount, recvtype, staged);
        boolean offered = PeerCopies.offers(seg, send, n * sendBlock);
        long s = offered ? offer(seg, send, 0, sendBlock) : begin(seg, send, 0, n * sendBlock, false);
        if (s > 0 && !offered) {
            seg.setLength(s, sendBlock); // the length of each block in the slot, not of them all
        }
        seg.publish(2 * Math.abs(s) - 1);
        for (int r = 0; r < n && s < 0; r++) {
            if (r != me) {
                seg.startSend(send.asSlice(r * sendBlock, sendBlock), r, tag);
            }
        }
        s = Math.abs(s);
        seg.awaitAll(2 * s - 1);
        long longest = copyOwn(send, me * sendBlock, sendBlock, recv, me * recvBlock, recvBlock);
        for (int r = 0; r < n; r++) {
            if (r != me) {
                longest = Math.max(longest, blockFrom(seg, s, r, me, recv, r * recvBlock, recvBlock, tag));
            }
        }
        seg.awaitSends();
        done(seg, s, offered);
        finish(recvbuf, n * recvcount, recvtype, recv, staged);
        checkFits(longest, recvBlock);
    }

    /**
     * Begins the next operation with this rank's blocks offered for peer copies, {@code bytes} each from {@code at}
     * of {@code data} (an allgather's or alltoall's: the others read them, {@link PeerCopies#readWhole}); returns the
     * operation's number.
     */
    private static long offer(CommSegment seg, MemorySegment data, long at, long bytes) {
        long s = seg.next();
        seg.beforeWriting(s);
        seg.offer(data, at, bytes);
        seg.setLength(s, CommSegment.BY_PEER_COPY);
        return s;
    }

    /**
     * This rank is done with operation {@code s} of an allgather or alltoall; if it {@code offered} its blocks, it
     * waits until all have read them. Raises a read of its that failed.
     */
    private static void done(CommSegment seg, long s, boolean offered) {
        seg.publish(2 * s);
        if (offered) {
            seg.awaitAll(2 * s);
        }
        PeerCopies.check(seg, s, seg.rank());
    }

    /**
     * A root's large data to every other member by peer copies ({@link PeerCopies}): {@code blocks}, one block of
     * {@code bytes} per member (a scatter), else the same {@code bytes} to all (a bcast). Returns once every member
     * has its data.
     */
    private void giveToAll(CommSegment seg, MemorySegment data, long bytes, boolean blocks) {
        long s = seg.next();
        seg.beforeWriting(s);
        seg.offer(data, bytes);
        seg.setLength(s, CommSegment.BY_PEER_COPY);
        seg.publish(2 * s - 1);
        for (int r = 0; r < seg.ranks(); r++) {
            if (r != me) {
                seg.awaitRank(r, 2 * s - 1); // it has offered its buffer (usually before this rank came)
                PeerCopies.write(seg, s, r, 0, data, blocks ? r * bytes : 0, bytes);
            }
        }
        seg.publish(2 * s);
        seg.awaitAll(2 * s);
        for (int r = 0; r < seg.ranks(); r++) {
            if (r != me) {
                PeerCopies.check(seg, s, r);
            }
        }
    }

    /** A gather's leaf's large block to {@code root} by peer copies ({@link PeerCopies}), into its block there. */
    private void giveTo(CommSegment seg, int root, MemorySegment mine) {
        long s = seg.next();
        seg.beforeWriting(s);
        seg.offer(mine, mine.byteSize());
        seg.setLength(s, CommSegment.BY_PEER_COPY);
        seg.publish(2 * s - 1);
        seg.awaitRank(root, 2 * s - 1);
        PeerCopies.write(seg, s, root, me, mine, 0, mine.byteSize());
        seg.publish(2 * s);
        seg.awaitRank(root, 2 * s);
        PeerCopies.check(seg, s, root);
    }

    /**
     * A reader of a bcast or scatter whose receive buffer is larger than a slot offers it for operation {@code s}
     * before it knows whether its root's data goes by peer copies ({@link PeerCopies}): the root then finds it
     * offered and starts its part at once, instead of a hand-off later. Harmless when the data goes another way:
     * the reader is not done with {@code s} either way. Returns whether it offered.
     */
    private static boolean offerEarly(CommSegment seg, long s, MemorySegment into) {
        if (into.byteSize() <= seg.slotBytes()) {
            return false;
        }
        seg.offer(into, into.byteSize());
        seg.publish(2 * s - 1);
        return true;
    }

    /**
     * A reader's side of a root's peer copies ({@link #giveToAll}), after the root's {@code 2s - 1}: offers
     * {@code into} unless it {@code offered} it already, takes block {@code index} of the root's data and waits until
     * the root has written its part; returns the block's length.
     */
    private static long takeFrom(CommSegment seg, long s, int root, int index, MemorySegment into, boolean offered) {
        if (!offered) { // a buffer no larger than a slot: the root's data is larger (truncated)
            seg.offer(into, into.byteSize());
            seg.publish(2 * s - 1);
        }
        long sent = PeerCopies.read(seg, s, root, index, into, 0, into.byteSize());
        seg.publish(2 * s); // done reading: each waits for the other's part, not for its own turn
        seg.awaitRank(root, 2 * s);
        PeerCopies.check(seg, s, root);
        return sent;
    }

    /**
     * Begins the next operation with {@code bytes} of {@code data} at {@code offset}: copied into this rank's slot
     * ({@code ahead}: its ahead slot if they fit, for a rank that goes on while others read them later) and their
     * length recorded when they fit (returns the operation's number), else {@link CommSegment#BY_MESSAGE} recorded
     * (returns the number negated: the caller sends the data as messages).
     */
    private static long begin(CommSegment seg, MemorySegment data, long offset, long bytes, boolean ahead) {
        if (bytes <= seg.slotBytes()) {
            long s = ahead ? seg.writeAhead(data, offset, bytes) : seg.write(data, offset, bytes);
            seg.setLength(s, bytes);
            return s;
        }
        long s = seg.next();
        seg.beforeWriting(s);
        seg.setLength(s, CommSegment.BY_MESSAGE);
        return -s;
    }

    private void startSendsToAll(CommSegment seg, MemorySegment data, int tag) {
        for (int r = 0; r < seg.ranks(); r++) {
            if (r != me) {
                seg.startSend(data, r, tag);
            }
        }
    }

    /**
     * Block {@code index} of what {@code rank} contributed to operation {@code s}, into {@code to} at {@code at}, at
     * most {@code room} bytes: out of its slot, out of its buffer when it recorded {@link CommSegment#BY_PEER_COPY},
     * or by a message when it recorded {@link CommSegment#BY_MESSAGE};
     * returns the block's length (more than {@code room}: truncated).
     */
    private static long blockFrom(CommSegment seg, long s, int rank, int index, MemorySegment to, long at, long room,
                                  int tag) {
        long length = seg.length(rank, s);
        if (length == CommSegment.BY_PEER_COPY) {
            return PeerCopies.readWhole(seg, s, rank, index, to, at, room);
        }
        if (length == CommSegment.BY_MESSAGE) {
            return seg.receive(to.asSlice(at, room), rank, tag);
        }
        return copyOut(seg, s, rank, index, to, at, room);
    }

    /**
     * This rank's own block, {@code length} bytes of {@code from} at {@code offset}, into {@code to} at {@code at},
     * at most {@code room} bytes; returns its length.
     */
    static long copyOwn(MemorySegment from, long offset, long length, MemorySegment to, long at, long room) {
        MemorySegment.copy(from, offset, to, at, Math.min(length, room));
        return length;
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

    /** Where a result goes: a view of the buffer, or (staged) a packed copy of its current values. */
    MemorySegment receiving(Object buffer, int count, TypeDescriptor type, boolean staged) {
        return staged ? BufferMapping.forUpdate(buffer, count, type) : views.view(buffer, count, type, true);
    }

    /** What is sent: a view of the buffer, or a packed copy for a type that needs staging. */
    MemorySegment sending(Object buffer, int count, TypeDescriptor type) {
        return BufferMapping.needsStaging(buffer, type) ? BufferMapping.forSend(buffer, count, type)
                : views.view(buffer, count, type, false);
    }

    /** Unpacks a staged result ({@link #receiving}) into its buffer. */
    static void finish(Object buffer, int count, TypeDescriptor type, MemorySegment data, boolean staged) {
        if (staged) {
            BufferMapping.finishReceive(buffer, count, type, data, data.byteSize());
        }
    }

    /** {@code sent}, or {@code ERR_TRUNCATE} if it is longer than {@code room}. */
    static long checkFits(long sent, long room) {
        if (sent > room) {
            throw MpiErrors.error(ErrorClass.ERR_TRUNCATE, "a block of " + sent + " bytes sent into a receive block"
                    + " of " + room + " bytes (do the send and receive counts and types agree?)");
        }
        return sent;
    }
}
