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
    private final Typemap blocks;
    private final long tileBytes;
    private final long extent;
    /** Stream bytes before block {@code b} of a tile. */
    private final long[] before;
    private final boolean contiguous;

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
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.blocks = filetype.typemap().copyBlocks();
        this.tileBytes = filetype.byteSize();
        this.extent = filetype.extent();
        this.before = new long[blocks.runs()];
        for (int b = 1; b < blocks.runs(); b++) {
            before[b] = before[b - 1] + blocks.length(b - 1);
        }
        this.contiguous = blocks.runs() == 1 && blocks.offset(0) == 0 && blocks.length(0) == extent;
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
        return disp + tile * extent + blocks.offset(b) + within - before[b];
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
            long take = Math.min(blocks.length(b) - into, length - done);
            long at = disp + tile * extent + blocks.offset(b) + into;
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
            if (++b == blocks.runs()) {
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
