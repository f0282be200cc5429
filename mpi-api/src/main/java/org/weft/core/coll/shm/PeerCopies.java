package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * Large blocks of bcast, gather and scatter moved straight between two members' buffers, ordered by the segment's
 * flags instead of messages: the block's owner records {@link CommSegment#BY_PEER_COPY} and offers its buffer
 * ({@link CommSegment#offer}), and so does the rank it goes to; then the receiving rank copies the first part of the
 * block out of the owner's buffer while the owner copies the rest into the receiver's ({@link #split}), both at
 * once. A buffer of {@code MPI.newByteBuffer} lies in its rank's shared heap, which the peer maps once
 * ({@link CommSegment#offeredChunk}): the copy is then the peer's own {@code memcpy}; any other native buffer is
 * copied by cross-memory attach ({@link CommSegment#copyFrom}, {@link CommSegment#copyTo}).
 *
 * <p>Why not a message: over shm a large message is read out of the sender's memory in one system call too, but by
 * the receiver alone, while the sender waits; such a call spends two thirds of its time pinning pages (128 KiB:
 * 10.3 µs, where a {@code memcpy} in cache takes 2.3), so two ranks each pinning half the pages take 7.1 µs. And
 * the request to send, its matching and the answer that the data was taken cost ~5 µs more per block
 * (docs/performance.md, "Issue 25, eighth session"). A {@code memcpy} out of or into a mapped peer's buffer pins
 * nothing and takes no system call.
 *
 * <p>Phases of operation {@code s} for one block: the owner and the receiver each offer their buffer and publish
 * {@code 2s - 1}; each waits for the other's {@code 2s - 1}, copies its part and publishes {@code 2s}; each waits
 * for the other's {@code 2s} before its buffer is its caller's again. A copy that fails (the kernel refused it) is
 * recorded and raised at both, after the phases ran out, so no member is left waiting.
 */
final class PeerCopies {
    /** The receiver's part is at least this, and the owner's a whole number of it (a page: each pins its own). */
    private static final long GRAIN = 4096;

    private PeerCopies() {
    }

    /**
     * Whether {@code data} (this rank's block or blocks, {@code bytes} each) goes by peer copies: larger than a slot
     * (up to a slot, a copy into the slot and one out of it cost less than two system calls: 64 KiB bcast at 2
     * ranks 4.1 µs against 6.1), native (the system calls take addresses), and this rank can copy to and from every
     * other member.
     */
    static boolean offers(CommSegment seg, MemorySegment data, long bytes) {
        return bytes > seg.slotBytes() && data.isNative() && seg.copiesPeerMemory();
    }

    /**
     * Where a block of {@code bytes} divides between its receiver (before) and its owner (from there on): the
     * owner's share is a {@code ranks}-th, so that a bcast's root, which writes a share into every reader, works
     * about as long as each reader.
     */
    static long split(long bytes, int ranks) {
        long owners = bytes / ranks / GRAIN * GRAIN;
        return bytes - owners;
    }

    /**
     * The receiver's part: copies block {@code index} of what {@code owner} offered for operation {@code s} (its
     * blocks as long as it offered) into {@code into} at {@code at}, up to {@code room} bytes: the first part if this
     * rank offered {@code into} (native), else all of it (through scratch memory); records a failure. Returns the
     * block's length.
     */
    static long read(CommSegment seg, long s, int owner, int index, MemorySegment into, long at, long room) {
        return take(seg, s, owner, index, into, at, room, true);
    }

    /**
     * As {@link #read}, all of the block, the owner writing nothing (an allgather's or alltoall's: every member
     * reads the blocks it receives, each owner only offers its own).
     */
    static long readWhole(CommSegment seg, long s, int owner, int index, MemorySegment into, long at, long room) {
        return take(seg, s, owner, index, into, at, room, false);
    }

    private static long take(CommSegment seg, long s, int owner, int index, MemorySegment into, long at, long room,
                             boolean shared) {
        long length = seg.offeredBytes(owner);
        long n = Math.min(length, room);
        long part = shared && into.isNative() ? split(n, seg.ranks()) : n;
        long from = seg.offeredAddress(owner) + index * length;
        MemorySegment chunk = seg.offeredChunk(owner);
        boolean copied;
        if (chunk != null) { // in the owner's shared heap: a copy of this rank's own
            MemorySegment.copy(chunk, seg.offeredOffset(owner) + index * length, into, at, part);
            copied = true;
        } else if (into.isNative()) {
            copied = seg.copyFrom(owner, from, into, at, part);
        } else {
            MemorySegment scratch = seg.scratch(n);
            copied = seg.copyFrom(owner, from, scratch, 0, n);
            if (copied) {
                MemorySegment.copy(scratch, 0, into, at, n);
            }
        }
        if (!copied) {
            seg.markFailed(s);
        }
        return length;
    }

    /**
     * The owner's part: copies the rest of {@code length} bytes of {@code data} at {@code offset} into block
     * {@code index} of what {@code receiver} offered (blocks as long as it offered; none if it offered no address: it
     * reads all); records a failure of operation {@code s}.
     */
    static void write(CommSegment seg, long s, int receiver, int index, MemorySegment data, long offset,
                      long length) {
        long address = seg.offeredAddress(receiver);
        long room = seg.offeredBytes(receiver);
        long n = Math.min(length, room);
        long split = split(n, seg.ranks());
        if (address == 0 || n <= split) {
            return;
        }
        MemorySegment chunk = seg.offeredChunk(receiver);
        if (chunk != null) { // in the receiver's shared heap: a copy of this rank's own
            MemorySegment.copy(data, offset + split, chunk, seg.offeredOffset(receiver) + index * room + split,
                    n - split);
        } else if (!seg.copyTo(receiver, address + index * room + split, data, offset + split, n - split)) {
            seg.markFailed(s);
        }
    }

    /** Raises a failed copy of operation {@code s} that this rank or {@code peer} recorded. */
    static void check(CommSegment seg, long s, int peer) {
        if (seg.failed(seg.rank(), s) || seg.failed(peer, s)) {
            throw MpiErrors.error(ErrorClass.ERR_OTHER, "a collective's copy between the memories of ranks "
                    + seg.rank() + " and " + peer + " of the communicator failed: the kernel refused cross-memory"
                    + " attach (shm_single_copy=none moves such data by messages through the ring)");
        }
    }
}
