package org.weft.core.io;

import org.weft.adi.ErrorClass;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.datatype.Typemap;
import org.weft.core.error.MpiErrors;

/**
 * A file view ({@code MPI_File_set_view}): the file's bytes that a rank sees, as a stream. The filetype is tiled
 * from byte {@code disp} on, tile {@code i} at {@code disp + i * extent}; the bytes of the stream are the bytes
 * its typemap holds, in type order. {@link #runs} maps a range of the stream to runs of file bytes, merging runs
 * that touch, so that a contiguous view is one run and a strided one a run per block — never one per element.
 * Positions of the stream count bytes here; the file counts them in etypes ({@link #etypeBytes}).
 *
 * <p>MPI requires the filetype's displacements to be non-negative and non-decreasing, so the runs come in file
 * order; {@link #fileOffset} relies on it.
 */
final class ViewLayout {
    /** Receives the runs of {@link #runs}: {@code length} file bytes at {@code fileOffset}, which hold the stream's
     * bytes from {@code dataOffset} (counted from the start of the range). */
    @FunctionalInterface
    interface RunSink {
        void run(long fileOffset, long length, long dataOffset);
    }

    private final long disp;
    private final TypeDescriptor etype;
    private final TypeDescriptor filetype;
    /** The filetype's copy blocks: file offsets from the start of a tile and lengths, in type order. */
    private final long[] blockOffsets;
    private final long[] blockLengths;
    private final long tileBytes;
    private final long extent;
    /** Stream bytes before block {@code b} of a tile. */
    private final long[] before;
    private final boolean contiguous;
    private final boolean monotone;

    ViewLayout(long disp, TypeDescriptor etype, TypeDescriptor filetype) {
        TypeDescriptor.check(etype);
        TypeDescriptor.check(filetype);
        if (disp < 0) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "negative displacement " + disp + " of a view");
        }
        if (etype.byteSize() == 0 || filetype.byteSize() == 0 || filetype.byteSize() % etype.byteSize() != 0) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the filetype " + filetype + " is not made of whole etypes "
                    + etype);
        }
        if (filetype.typemap().runs() > 0 && filetype.typemap().trueLb() < 0) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the filetype " + filetype + " has a negative displacement");
        }
        Typemap blocks = filetype.typemap().copyBlocks();
        long[] offsets = new long[blocks.runs()];
        long[] lengths = new long[blocks.runs()];
        for (int b = 0; b < offsets.length; b++) {
            offsets[b] = blocks.offset(b);
            lengths[b] = blocks.length(b);
        }
        this(disp, etype, filetype, filetype.extent(), offsets, lengths);
    }

    private ViewLayout(long disp, TypeDescriptor etype, TypeDescriptor filetype, long extent, long[] blockOffsets,
                       long[] blockLengths) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.blockOffsets = blockOffsets;
        this.blockLengths = blockLengths;
        this.extent = extent;
        this.before = new long[blockOffsets.length];
        long bytes = blockLengths.length == 0 ? 0 : blockLengths[0];
        boolean inOrder = extent > 0 && blockOffsets.length > 0 && blockOffsets[0] >= 0;
        for (int b = 1; b < blockOffsets.length; b++) {
            before[b] = before[b - 1] + blockLengths[b - 1];
            bytes += blockLengths[b];
            inOrder &= blockOffsets[b] >= blockOffsets[b - 1] + blockLengths[b - 1];
        }
        int last = blockOffsets.length - 1;
        this.tileBytes = bytes;
        this.monotone = inOrder && blockOffsets[last] + blockLengths[last] <= extent;
        this.contiguous = blockOffsets.length == 1 && blockOffsets[0] == 0 && blockLengths[0] == extent;
    }

    /**
     * The view as numbers, for another rank to rebuild with {@link #described}: displacement, extent, number of
     * blocks, then each block's offset and length.
     */
    long[] description() {
        long[] d = new long[3 + 2 * blockOffsets.length];
        d[0] = disp;
        d[1] = extent;
        d[2] = blockOffsets.length;
        for (int b = 0; b < blockOffsets.length; b++) {
            d[3 + 2 * b] = blockOffsets[b];
            d[4 + 2 * b] = blockLengths[b];
        }
        return d;
    }

    /** Another rank's view from its {@link #description} at {@code at} of {@code all} (no etype nor filetype). */
    static ViewLayout described(long[] all, int at) {
        int blocks = Math.toIntExact(all[at + 2]);
        long[] offsets = new long[blocks];
        long[] lengths = new long[blocks];
        for (int b = 0; b < blocks; b++) {
            offsets[b] = all[at + 3 + 2 * b];
            lengths[b] = all[at + 4 + 2 * b];
        }
        return new ViewLayout(all[at], null, null, all[at + 1], offsets, lengths);
    }

    long disp() {
        return disp;
    }

    TypeDescriptor etype() {
        return etype;
    }

    TypeDescriptor filetype() {
        return filetype;
    }

    long etypeBytes() {
        return etype.byteSize();
    }

    /**
     * True when the stream's bytes lie in file order: blocks in increasing offsets, none overlapping another or
     * the next tile (as MPI requires of a filetype); two-phase I/O relies on it.
     */
    boolean isMonotone() {
        return monotone;
    }

    /**
     * The stream bytes at file offsets below {@code fileOffset}, counted from the stream's start (for a
     * {@linkplain #isMonotone monotone} view): the stream byte that holds the first file byte at or past
     * {@code fileOffset}.
     */
    long streamBefore(long fileOffset) {
        long rel = fileOffset - disp;
        if (rel <= 0) {
            return 0;
        }
        if (contiguous) {
            return rel;
        }
        long tile = rel / extent;
        long within = rel % extent;
        int lo = 0; // the first block that ends past within
        int hi = blockOffsets.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (blockOffsets[mid] + blockLengths[mid] <= within) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        long inTile = lo == blockOffsets.length ? tileBytes : before[lo] + Math.max(0, within - blockOffsets[lo]);
        return tile * tileBytes + inTile;
    }

    /** The mean bytes of a run of this view's stream (unbounded for a contiguous view). */
    long meanRun() {
        if (contiguous) {
            return Long.MAX_VALUE;
        }
        int runs = blockOffsets.length;
        for (int b = 1; b < blockOffsets.length; b++) {
            runs -= blockOffsets[b] == blockOffsets[b - 1] + blockLengths[b - 1] ? 1 : 0;
        }
        return tileBytes / runs;
    }

    /** True when the stream is the file from {@code disp} on, byte for byte. */
    boolean isContiguous() {
        return contiguous;
    }

    /** The file byte that holds byte {@code position} of the stream. */
    long fileOffset(long position) {
        if (contiguous) {
            return disp + position;
        }
        long tile = position / tileBytes;
        long within = position % tileBytes;
        int b = blockHolding(within);
        return disp + tile * extent + blockOffsets[b] + within - before[b];
    }

    /** {@code {first file byte, one past the last}} of the stream's bytes {@code [position, position + length)}. */
    long[] span(long position, long length) {
        return new long[] {fileOffset(position), fileOffset(position + length - 1) + 1};
    }

    /** Calls {@code sink} for each run of file bytes holding the stream's bytes [position, position + length). */
    void runs(long position, long length, RunSink sink) {
        if (length <= 0) {
            return;
        }
        if (contiguous) {
            sink.run(disp + position, length, 0);
            return;
        }
        long tile = position / tileBytes;
        long within = position % tileBytes;
        int b = blockHolding(within);
        long into = within - before[b];
        long pendingOffset = -1;
        long pendingLength = 0;
        long pendingData = 0;
        long done = 0;
        while (done < length) {
            long take = Math.min(blockLengths[b] - into, length - done);
            long at = disp + tile * extent + blockOffsets[b] + into;
            if (pendingLength > 0 && pendingOffset + pendingLength == at) {
                pendingLength += take;
            } else {
                if (pendingLength > 0) {
                    sink.run(pendingOffset, pendingLength, pendingData);
                }
                pendingOffset = at;
                pendingLength = take;
                pendingData = done;
            }
            done += take;
            into = 0;
            if (++b == blockOffsets.length) {
                b = 0;
                tile++;
            }
        }
        sink.run(pendingOffset, pendingLength, pendingData);
    }

    /** The block of a tile that holds the tile's stream byte {@code within} (binary search over {@link #before}). */
    private int blockHolding(long within) {
        int lo = 0;
        int hi = before.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (before[mid] <= within) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
