package org.weft.core.io;

import org.weft.adi.DeviceException;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;

/**
 * What every rank knows of a collective access once the ranks have told each other their views (once per view,
 * {@link #exchangeViews}) and their positions and lengths (once per call): whether to aggregate, the file domains,
 * and for any rank and file offset the slice of that rank's data that lies before it ({@link #dataAt}).
 *
 * <p>Whether to aggregate follows ROMIO's hints {@code romio_cb_write} and {@code romio_cb_read}: {@code enable},
 * {@code disable}, or {@code automatic} (the default): aggregate when the ranks' spans interleave and some rank's
 * runs are short ({@link #SHORT_RUN}). The window size is the hint {@code cb_buffer_size} (default
 * {@link #DEFAULT_BUFFER}). Rank 0's choice and the smallest buffer count, so that ranks given different hints
 * still agree.
 */
final class CollectiveAccess {
    /**
     * Runs shorter than this on average make a collective access worth the exchange of two-phase I/O; longer ones
     * are written as they are, one positional call each, which on a local file system costs less than moving their
     * bytes to an aggregator (docs/performance.md, "MPI-IO").
     */
    static final int SHORT_RUN = 4 << 10;
    /** ROMIO's default {@code cb_buffer_size}: 16 MiB. */
    static final long DEFAULT_BUFFER = 16 << 20;
    private static final TypeDescriptor LONG = TypeDescriptor.predefined("MPI_LONG", BaseType.LONG, 1);
    /** What each rank tells the others of a call: position, length, hint, buffer size, error class (0: none). */
    private static final int FIELDS = 5;
    private static final int AUTOMATIC = 0;
    private static final int ENABLE = 1;
    private static final int DISABLE = 2;

    private final Communicator comm;
    private final ViewLayout[] views;
    private final long[] positions;
    private final long[] lengths;
    private final FileDomains domains;

    private CollectiveAccess(Communicator comm, ViewLayout[] views, long[] positions, long[] lengths,
                             FileDomains domains) {
        this.comm = comm;
        this.views = views;
        this.positions = positions;
        this.lengths = lengths;
        this.domains = domains;
    }

    /**
     * The two-phase plan of this rank's access of {@code length} stream bytes from {@code position}, or
     * {@code null} for independent access: always with hint {@code disable}, whenever there are bytes with
     * {@code enable}, by default when the spans interleave and some rank's runs average under {@link #SHORT_RUN};
     * never when a view's bytes are not in file order; the buffer is cut into {@code windows} windows (two when an
     * aggregator writes one while it fills the other). Collective, and the call's first agreement
     * ({@link Agreement}): a rank that {@code refused} the call (a bad argument) takes part all the same, and then
     * every rank throws, with {@code what} ("cannot write FILE") in the others' message.
     */
    static CollectiveAccess of(OpenFile file, ViewLayout view, long position, long length, String hintKey,
                               int windows, DeviceException refused, String what) {
        Communicator comm = file.communicator();
        ViewLayout[] views = file.peerViews();
        int n = comm.size();
        long[] all = new long[FIELDS * n];
        Collectives.allGather(comm, new long[] {position, length, hintCode(file.hint(hintKey)),
                bufferBytes(file.hint("cb_buffer_size")), refused == null ? 0 : refused.errorClass()}, FIELDS, LONG,
                all, FIELDS, LONG).run();
        Agreement.throwIfAnyFailed(n, r -> (int) all[FIELDS * r + 4], refused, what);
        long[] positions = new long[n];
        long[] lengths = new long[n];
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long buffer = Long.MAX_VALUE;
        long shortest = Long.MAX_VALUE;
        boolean inOrder = true;
        for (int r = 0; r < n; r++) {
            positions[r] = all[FIELDS * r];
            lengths[r] = all[FIELDS * r + 1];
            buffer = Math.min(buffer, all[FIELDS * r + 3]);
            if (lengths[r] > 0) {
                long[] span = views[r].span(positions[r], lengths[r]);
                start = Math.min(start, span[0]);
                end = Math.max(end, span[1]);
                shortest = Math.min(shortest, views[r].meanRun());
                inOrder &= views[r].isMonotone();
            }
        }
        boolean wanted = switch ((int) all[2]) {
            case DISABLE -> false;
            case ENABLE -> true;
            default -> shortest < SHORT_RUN && interleaved(views, positions, lengths);
        };
        return !wanted || !inOrder || start >= end ? null : new CollectiveAccess(comm, views, positions, lengths,
                FileDomains.of(start, end, n, Math.max(1, buffer / windows)));
    }

    /** Every rank's view, {@code mine} at this rank's place: collective, once per view (the file keeps them). */
    static ViewLayout[] exchangeViews(Communicator comm, ViewLayout mine) {
        long[] description = mine.description();
        int[] counts = CreationCalls.allGather(comm, new int[] {description.length});
        int[] starts = new int[counts.length];
        for (int r = 1; r < counts.length; r++) {
            starts[r] = starts[r - 1] + counts[r - 1];
        }
        long[] all = new long[starts[counts.length - 1] + counts[counts.length - 1]];
        Collectives.allGatherv(comm, description, description.length, LONG, all, counts, starts, LONG).run();
        ViewLayout[] views = new ViewLayout[counts.length];
        for (int r = 0; r < views.length; r++) {
            views[r] = r == comm.rank() ? mine : ViewLayout.described(all, starts[r]);
        }
        return views;
    }

    private static int hintCode(String hint) {
        return hint == null ? AUTOMATIC : switch (hint) {
            case "enable" -> ENABLE;
            case "disable" -> DISABLE;
            default -> AUTOMATIC;
        };
    }

    private static long bufferBytes(String hint) {
        try {
            return hint == null ? DEFAULT_BUFFER : Math.max(1, Long.parseLong(hint.trim()));
        } catch (NumberFormatException e) {
            return DEFAULT_BUFFER;
        }
    }

    private static boolean interleaved(ViewLayout[] views, long[] positions, long[] lengths) {
        for (int r = 0; r < views.length; r++) {
            for (int s = r + 1; s < views.length; s++) {
                if (lengths[r] > 0 && lengths[s] > 0) {
                    long[] a = views[r].span(positions[r], lengths[r]);
                    long[] b = views[s].span(positions[s], lengths[s]);
                    if (a[0] < b[1] && b[0] < a[1]) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    Communicator comm() {
        return comm;
    }

    int ranks() {
        return views.length;
    }

    FileDomains domains() {
        return domains;
    }

    ViewLayout view(int rank) {
        return views[rank];
    }

    /** The stream position at which rank {@code rank}'s access starts. */
    long position(int rank) {
        return positions[rank];
    }

    /**
     * How many of rank {@code rank}'s data bytes (of this access) lie at file offsets below {@code fileOffset}: the
     * bytes of a window {@code [lo, hi)} are the slice {@code [dataAt(lo), dataAt(hi))} of the rank's data.
     */
    long dataAt(int rank, long fileOffset) {
        return Math.clamp(views[rank].streamBefore(fileOffset) - positions[rank], 0, lengths[rank]);
    }

    /** The bytes that ranks other than this one have in the window {@code [lo, hi)}. */
    long othersBytes(long lo, long hi) {
        long bytes = 0;
        for (int r = 0; r < views.length; r++) {
            bytes += r == comm.rank() ? 0 : dataAt(r, hi) - dataAt(r, lo);
        }
        return bytes;
    }

    /** {@code {first, one past the last}} file byte that some rank accesses in {@code [lo, hi)}; empty if none. */
    long[] covering(long lo, long hi) {
        long first = hi;
        long last = lo;
        for (int r = 0; r < views.length; r++) {
            long from = dataAt(r, lo);
            long to = dataAt(r, hi);
            if (to > from) {
                first = Math.min(first, views[r].fileOffset(positions[r] + from));
                last = Math.max(last, views[r].fileOffset(positions[r] + to - 1) + 1);
            }
        }
        return new long[] {first, last};
    }
}
