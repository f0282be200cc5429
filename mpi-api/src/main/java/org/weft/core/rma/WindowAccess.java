package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import org.weft.core.coll.op.Combiner;
import org.weft.core.datatype.BaseType;

/**
 * Applies one one-sided request ({@link RmaFrame}: a header, then a body of runs and data) to a window's memory:
 * a put, get, accumulate, get-accumulate or compare-and-swap. The target's {@link WindowService} applies the
 * requests that arrive as messages and sends the replies back; an origin that maps its target's window
 * ({@link SharedWindow}) applies its own requests to the mapping, the reply landing in its receive buffer. A
 * subclass says where a reply goes. One thread at a time uses an instance (its staging is reused).
 */
abstract class WindowAccess {
    private final int rank;
    private final AccumulateOp.Combiners combiners = new AccumulateOp.Combiners();
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    /** Where pairs are gathered for MINLOC and MAXLOC; grown as needed. */
    private MemorySegment pairStaging;

    /** {@code rank}: this process's world rank, for what it prints. */
    WindowAccess(int rank) {
        this.rank = rank;
    }

    /** Memory of at least {@code bytes} bytes for the reply of the request being applied. */
    abstract MemorySegment replyStaging(long bytes);

    /** Sends {@code data} (from {@link #replyStaging}) to {@code origin} with {@code replyTag}. */
    abstract void reply(MemorySegment data, int origin, int replyTag);

    /**
     * Applies the request whose header is {@code frame} and whose runs and data are {@code body} to {@code memory}
     * (a dynamic window's memory is {@code attached} instead).
     */
    final void access(int origin, MemorySegment frame, MemorySegment body, MemorySegment memory,
                      AttachedMemory attached) {
        int kind = RmaFrame.kind(frame);
        int replyTag = RmaFrame.replyTag(frame);
        int runs = RmaFrame.runs(frame);
        MemorySegment data = body.asSlice((long) runs * RmaFrame.RUN, RmaFrame.dataBytes(frame));
        long offset = RmaFrame.targetOffset(frame);
        MemorySegment target = memory;
        if (attached != null) { // a dynamic window: the attached piece that holds the first byte
            AttachedMemory.Piece piece = attached.find(offset);
            target = piece == null ? empty : piece.memory();
            offset -= piece == null ? 0 : piece.base();
        }
        Region region = new Region(target, offset, RmaFrame.targetCount(frame), RmaFrame.extent(frame), body, runs);
        try {
            apply(origin, frame, kind, replyTag, region, data);
        } catch (IndexOutOfBoundsException e) {
            if (attached == null) {
                throw e; // the origin checked the range: a bug, not the program's
            }
            outsideAttached(origin, kind, replyTag, region, RmaFrame.targetOffset(frame));
        }
        VarHandle.releaseFence(); // the program's own threads read the window after the next synchronisation
    }

    private void apply(int origin, MemorySegment frame, int kind, int replyTag, Region region, MemorySegment data) {
        switch (kind) {
            case RmaFrame.PUT -> region.copy(region.memory(), data, true);
            case RmaFrame.GET -> sendBack(origin, replyTag, region);
            case RmaFrame.ACCUMULATE -> accumulate(frame, region, data);
            case RmaFrame.GET_ACCUMULATE -> {
                MemorySegment old = atomicWords() ? replyStaging(region.bytes()) : null;
                if (old != null && updateWords(frame, region, data, old)) {
                    reply(old, origin, replyTag);
                } else {
                    sendBack(origin, replyTag, region);
                    accumulate(frame, region, data);
                }
            }
            case RmaFrame.COMPARE_AND_SWAP -> compareAndSwap(origin, replyTag, region, data, RmaFrame.baseType(frame));
            default -> throw new IllegalStateException("unknown one-sided request " + kind);
        }
    }

    /**
     * An access to a dynamic window beyond the memory attached at this process (erroneous in MPI; only the target
     * can tell, as attach is local): dropped, with a line naming it; a read gets zeros, so its origin does not wait
     * for ever.
     */
    private void outsideAttached(int origin, int kind, int replyTag, Region region, long displacement) {
        System.err.println("weft: rank " + rank + ": a one-sided access from rank " + origin + " at"
                + " displacement " + displacement + " of a dynamic window lies outside the memory attached here;"
                + " dropped");
        if (kind == RmaFrame.GET || kind == RmaFrame.GET_ACCUMULATE || kind == RmaFrame.COMPARE_AND_SWAP) {
            MemorySegment zeros = replyStaging(region.bytes());
            zeros.fill((byte) 0);
            reply(zeros, origin, replyTag);
        }
    }

    private void sendBack(int origin, int replyTag, Region region) {
        MemorySegment out = replyStaging(region.bytes());
        region.copy(region.memory(), out, false);
        reply(out, origin, replyTag);
    }

    private void accumulate(MemorySegment frame, Region region, MemorySegment data) {
        AccumulateOp op = AccumulateOp.of(RmaFrame.opOrLock(frame));
        if (op == AccumulateOp.NO_OP) {
            return; // no origin data: a get-accumulate that only reads
        }
        int baseType = RmaFrame.baseType(frame);
        if (baseType >= AccumulateOp.PAIR_CODE) {
            accumulatePairs(op, baseType, region, data);
            return;
        }
        if (updateWords(frame, region, data, null)) {
            return;
        }
        long position = 0;
        for (int item = 0; item < region.count; item++) {
            for (int r = 0; r < region.runs; r++) {
                long length = RmaFrame.runLength(region.body, r);
                int elementBytes = RmaFrame.runElementBytes(region.body, r);
                Combiner combiner = combiners.combiner(op, baseType, elementBytes);
                combiner.combine(data.asSlice(position, length), region.memory().asSlice(region.at(item, r), length),
                        Math.toIntExact(length / elementBytes));
                position += length;
            }
        }
    }

    /**
     * Whether this access updates {@code int}, {@code long}, {@code float} and {@code double} elements word by
     * word ({@link WordAtomics}): an origin's in a window in shared memory, where lock-free fetch-and-ops and
     * compare-and-swaps change the same words. The target service's does not: it alone applies every request to
     * its window.
     */
    boolean atomicWords() {
        return false;
    }

    /**
     * An accumulate or get-accumulate whose elements are words ({@link #atomicWords}), applied word by word, each
     * word's old bits into {@code old} (packed, as a get-accumulate's reply) unless {@code null}; false, having
     * done nothing, for any other request.
     */
    private boolean updateWords(MemorySegment frame, Region region, MemorySegment data, MemorySegment old) {
        int baseType = RmaFrame.baseType(frame);
        if (!atomicWords() || baseType >= AccumulateOp.PAIR_CODE || region.runs == 0) {
            return false;
        }
        WordAtomics.Word word = WordAtomics.word(baseType, RmaFrame.runElementBytes(region.body, 0));
        for (int r = 0; r < region.runs; r++) {
            if (word == null || WordAtomics.word(baseType, RmaFrame.runElementBytes(region.body, r)) != word) {
                return false;
            }
        }
        AccumulateOp op = AccumulateOp.of(RmaFrame.opOrLock(frame));
        long position = 0;
        for (int item = 0; item < region.count; item++) {
            for (int r = 0; r < region.runs; r++) {
                long at = region.at(item, r);
                for (long end = at + RmaFrame.runLength(region.body, r); at < end; at += word.bytes()) {
                    long in = op == AccumulateOp.NO_OP ? 0 : WordAtomics.read(data, position, word);
                    long before = WordAtomics.aligned(region.memory(), at, word)
                            ? WordAtomics.update(region.memory(), at, op, word, in)
                            : WordAtomics.updateUnderLock(region.memory(), at, op, word, in);
                    if (old != null) {
                        WordAtomics.write(old, position, word, before);
                    }
                    position += word.bytes();
                }
            }
        }
        return true;
    }

    /**
     * MINLOC or MAXLOC on pairs: the target's records gathered run after run are packed records (value, then
     * index), as the origin sent them; combined so, and put back.
     */
    private void accumulatePairs(AccumulateOp op, int baseType, Region region, MemorySegment data) {
        long bytes = region.bytes();
        MemorySegment packed = pairStaging(bytes);
        region.copy(region.memory(), packed, false);
        Combiner combiner = combiners.combiner(op, baseType, 0);
        int recordBytes = BaseType.values()[baseType - AccumulateOp.PAIR_CODE].bytes()
                + Integer.BYTES; // a packed record: the value, then the int index
        combiner.combine(data.asSlice(0, bytes), packed, Math.toIntExact(bytes / recordBytes));
        region.copy(region.memory(), packed, true);
    }

    private MemorySegment pairStaging(long bytes) {
        if (pairStaging == null || pairStaging.byteSize() < bytes) {
            pairStaging = MemorySegment.ofArray(new byte[Math.toIntExact(Math.max(bytes, 256))]);
        }
        return pairStaging.asSlice(0, bytes);
    }

    /** The data holds the new value then the value to compare with; one element of one run. */
    private void compareAndSwap(int origin, int replyTag, Region region, MemorySegment data, int baseType) {
        long bytes = region.bytes();
        long at = region.at(0, 0);
        WordAtomics.Word word = atomicWords() ? WordAtomics.word(baseType, (int) bytes) : null;
        if (word != null && WordAtomics.aligned(region.memory(), at, word)) {
            MemorySegment old = replyStaging(bytes); // a word another origin may change lock-free: by the hardware
            WordAtomics.write(old, 0, word, WordAtomics.compareAndSwap(region.memory(), at, word,
                    WordAtomics.read(data, bytes, word), WordAtomics.read(data, 0, word)));
            reply(old, origin, replyTag);
            return;
        }
        MemorySegment target = region.memory().asSlice(at, bytes);
        MemorySegment old = replyStaging(bytes);
        old.copyFrom(target);
        if (target.mismatch(data.asSlice(bytes, bytes)) < 0) {
            target.copyFrom(data.asSlice(0, bytes));
        }
        reply(old, origin, replyTag);
    }

    /** Where an access acts: {@code count} items of the runs from {@code offset} in {@code memory}. */
    private record Region(MemorySegment memory, long offset, int count, long extent, MemorySegment body, int runs) {
        long at(int item, int run) {
            return offset + item * extent + RmaFrame.runOffset(body, run);
        }

        long bytes() {
            long bytes = 0;
            for (int r = 0; r < runs; r++) {
                bytes += RmaFrame.runLength(body, r);
            }
            return bytes * count;
        }

        /** Copies packed data into the region ({@code toWindow}) or the region into packed data. */
        void copy(MemorySegment window, MemorySegment packed, boolean toWindow) {
            long position = 0;
            for (int item = 0; item < count; item++) {
                for (int r = 0; r < runs; r++) {
                    long length = RmaFrame.runLength(body, r);
                    if (toWindow) {
                        MemorySegment.copy(packed, position, window, at(item, r), length);
                    } else {
                        MemorySegment.copy(window, at(item, r), packed, position, length);
                    }
                    position += length;
                }
            }
        }
    }
}
