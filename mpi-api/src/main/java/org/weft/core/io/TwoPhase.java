package org.weft.core.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.weft.adi.DeviceRequest;
import org.weft.adi.SendMode;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.p2p.PointToPoint;

/**
 * Collective reads and writes ({@code MPI_File_write_all} and kin) by two-phase I/O, as ROMIO does it. The ranks
 * first learn each other's file spans; if no two spans overlap, each rank simply does its own access (a
 * contiguous block per rank needs nothing more). If they interleave, as strided views of one array do, the span
 * of all of them is cut into one file domain per rank (the aggregators), and the data moves in two phases: for a
 * write, every rank sends each aggregator the pieces that fall in its domain (an all-to-all of piece offsets and
 * lengths, then their bytes by point-to-point messages), and each aggregator writes its domain in as few
 * contiguous runs as the pieces cover — one when they tile it; for a read, every rank sends the aggregators the
 * pieces it wants, each aggregator reads its domain's covering range in one go and sends the pieces back.
 *
 * <p>Whether to aggregate follows ROMIO's hints {@code romio_cb_write} and {@code romio_cb_read}: {@code enable},
 * {@code disable}, or {@code automatic} (the default): aggregate when the ranks' spans interleave and some rank's
 * runs are short ({@link #SHORT_RUN}).
 *
 * <p>A domain is held in one array, so a domain of 2 GiB or more (a single collective access of more than
 * 2 GiB times the ranks) falls back to independent access.
 */
final class TwoPhase {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final TypeDescriptor LONG = TypeDescriptor.predefined("MPI_LONG", BaseType.LONG, 1);
    private static final long MAX_DOMAIN = Integer.MAX_VALUE - 64;
    /**
     * Runs shorter than this on average make a collective access worth the exchange of two-phase I/O; longer ones
     * are written as they are, one positional call each, which on a local file system costs less than moving their
     * bytes to an aggregator (measured: 1 KiB runs 505 MB/s aggregated against 261 independent, 4 KiB runs 150
     * against 341; docs/performance.md, "MPI-IO").
     */
    static final int SHORT_RUN = 4 << 10;
    /** The tag of the data messages of {@link #exchangeBytes}, in the file's own communicator. */
    private static final int DATA_TAG = 1;

    private TwoPhase() {
    }

    static void write(OpenFile file, ChannelIo io, ViewLayout view, long position, MemorySegment data)
            throws IOException {
        Plan plan = Plan.of(file.communicator(), view, position, data.byteSize(), file.hint("romio_cb_write"));
        if (plan == null) {
            file.writeRuns(position, data);
            return;
        }
        Exchange mine = plan.pieces(view, position, data.byteSize(), data);
        Exchange theirs = mine.swap(file.communicator(), mine.payload, true);
        theirs.writeDomain(io);
    }

    static long read(OpenFile file, ChannelIo io, ViewLayout view, long position, MemorySegment target)
            throws IOException {
        Plan plan = Plan.of(file.communicator(), view, position, target.byteSize(), file.hint("romio_cb_read"));
        if (plan == null) {
            return io.readView(view, position, target.byteSize(), target);
        }
        long readable = readableBytes(view, position, target.byteSize(), io.channel().size());
        Exchange mine = plan.pieces(view, position, target.byteSize(), null);
        Exchange theirs = mine.swap(file.communicator(), null, false);
        byte[] replies = theirs.readDomain(io);
        byte[] back = new byte[(int) mine.totalBytes()];
        theirs.returnData(file.communicator(), replies, mine, back);
        plan.scatter(view, position, target.byteSize(), mine, back, target);
        return readable;
    }

    /** The stream bytes of this access that lie before the end of the file, in stream order. */
    private static long readableBytes(ViewLayout view, long position, long length, long fileSize) {
        long[] readable = {-1};
        view.runs(position, length, (fileOffset, runLength, dataOffset) -> {
            if (readable[0] < 0 && fileOffset + runLength > fileSize) {
                readable[0] = dataOffset + Math.max(0, fileSize - fileOffset);
            }
        });
        return readable[0] < 0 ? length : readable[0];
    }

    /** The file domains of a collective access: {@code null} when the ranks' spans do not interleave. */
    private record Plan(long start, long domain, int aggregators) {
        /**
         * The plan of a collective access, or {@code null} for independent access: always with hint
         * {@code disable}, whenever there are bytes with {@code enable}, and by default (ROMIO's
         * {@code automatic}) when the spans interleave and some rank's runs average under {@link #SHORT_RUN}.
         */
        static Plan of(Communicator comm, ViewLayout view, long position, long length, String hint) {
            long[] span = length == 0 ? new long[] {Long.MAX_VALUE, Long.MIN_VALUE} : view.span(position, length);
            long[] runs = {0};
            view.runs(position, length, (fileOffset, runLength, dataOffset) -> runs[0]++);
            int meanRun = runs[0] == 0 ? Integer.MAX_VALUE : (int) Math.min(Integer.MAX_VALUE, length / runs[0]);
            int[] all = CreationCalls.allGather(comm, new int[] {(int) span[0], (int) (span[0] >>> 32),
                    (int) span[1], (int) (span[1] >>> 32), meanRun});
            int n = comm.size();
            long[][] spans = new long[n][];
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            int shortest = Integer.MAX_VALUE;
            for (int r = 0; r < n; r++) {
                spans[r] = new long[] {joined(all, 5 * r), joined(all, 5 * r + 2)};
                start = Math.min(start, spans[r][0]);
                end = Math.max(end, spans[r][1]);
                shortest = Math.min(shortest, all[5 * r + 4]);
            }
            boolean wanted = switch (hint == null ? "automatic" : hint) {
                case "disable" -> false;
                case "enable" -> true;
                default -> interleaved(spans) && shortest < SHORT_RUN;
            };
            long domain = (end - start + n - 1) / n;
            return !wanted || start >= end || domain > MAX_DOMAIN ? null : new Plan(start, domain, n);
        }

        private static long joined(int[] all, int at) {
            return (all[at] & 0xFFFF_FFFFL) | ((long) all[at + 1] << 32);
        }

        private static boolean interleaved(long[][] spans) {
            long[][] sorted = Arrays.stream(spans).filter(s -> s[0] < s[1]).sorted((a, b) -> Long.compare(a[0], b[0]))
                    .toArray(long[][]::new);
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i][0] < sorted[i - 1][1]) {
                    return true;
                }
            }
            return false;
        }

        int aggregatorOf(long fileOffset) {
            return (int) ((fileOffset - start) / domain);
        }

        long domainEnd(int aggregator) {
            return start + (aggregator + 1) * domain;
        }

        /**
         * This rank's runs cut at the domains' borders: offsets and lengths per aggregator, in stream order, and
         * for a write ({@code data} not null) their bytes grouped the same way.
         */
        Exchange pieces(ViewLayout view, long position, long length, MemorySegment data) {
            int[] counts = new int[aggregators];
            int[] bytes = new int[aggregators];
            view.runs(position, length, (off, len, dataOff) -> forEachPiece(off, len, dataOff, (a, o, l, d) -> {
                counts[a]++;
                bytes[a] += (int) l;
            }));
            Exchange exchange = new Exchange(this, counts, bytes);
            int[] next = exchange.pieceStarts();
            long[] filled = longs(starts(bytes, 1));
            MemorySegment grouped = data == null ? null : MemorySegment.ofArray(
                    exchange.payload = new byte[Math.toIntExact(exchange.totalBytes())]);
            view.runs(position, length, (off, len, dataOff) -> forEachPiece(off, len, dataOff, (a, o, l, d) -> {
                int at = 2 * next[a]++;
                exchange.meta[at] = o;
                exchange.meta[at + 1] = l;
                if (grouped != null) {
                    MemorySegment.copy(data, d, grouped, filled[a], l);
                    filled[a] += l;
                }
            }));
            return exchange;
        }

        /** Copies the bytes that came back for a read ({@code back}, grouped by aggregator) to their stream places. */
        void scatter(ViewLayout view, long position, long length, Exchange mine, byte[] back, MemorySegment target) {
            long[] taken = longs(starts(mine.bytes, 1));
            MemorySegment source = MemorySegment.ofArray(back);
            view.runs(position, length, (off, len, dataOff) -> forEachPiece(off, len, dataOff, (a, o, l, d) -> {
                MemorySegment.copy(source, taken[a], target, d, l);
                taken[a] += l;
            }));
        }

        private void forEachPiece(long offset, long length, long dataOffset, PieceSink sink) {
            for (long done = 0; done < length; ) {
                long at = offset + done;
                int a = aggregatorOf(at);
                long take = Math.min(length - done, domainEnd(a) - at);
                sink.piece(a, at, take, dataOffset + done);
                done += take;
            }
        }
    }

    @FunctionalInterface
    private interface PieceSink {
        void piece(int aggregator, long fileOffset, long length, long dataOffset);
    }

    /**
     * Pieces of file bytes grouped by rank: before the swap, this rank's pieces per aggregator; after it, an
     * aggregator's pieces per rank. {@code meta} holds offset and length of each piece, {@code payload} their
     * bytes (for a write).
     */
    private static final class Exchange {
        final Plan plan;
        final int[] counts;
        final int[] bytes;
        final long[] meta;
        byte[] payload;

        Exchange(Plan plan, int[] counts, int[] bytes) {
            this.plan = plan;
            this.counts = counts;
            this.bytes = bytes;
            this.meta = new long[2 * Arrays.stream(counts).sum()];
        }

        int[] pieceStarts() {
            return starts(counts, 1);
        }

        long totalBytes() {
            long total = 0;
            for (int b : bytes) {
                total += b;
            }
            return total;
        }

        /** Sends the pieces (and their bytes) to their aggregators; returns what this rank receives as one. */
        Exchange swap(Communicator comm, byte[] data, boolean withData) {
            int n = counts.length;
            int[] sizes = new int[2 * n];
            for (int r = 0; r < n; r++) {
                sizes[2 * r] = counts[r];
                sizes[2 * r + 1] = bytes[r];
            }
            int[] received = new int[2 * n];
            Collectives.allToAll(comm, sizes, 2, INT, received, 2, INT).run();
            int[] theirCounts = new int[n];
            int[] theirBytes = new int[n];
            for (int r = 0; r < n; r++) {
                theirCounts[r] = received[2 * r];
                theirBytes[r] = received[2 * r + 1];
            }
            Exchange theirs = new Exchange(plan, theirCounts, theirBytes);
            Collectives.allToAllv(comm, meta, times(counts, 2), starts(counts, 2), LONG, theirs.meta,
                    times(theirCounts, 2), starts(theirCounts, 2), LONG).run();
            if (withData) {
                theirs.payload = new byte[Math.toIntExact(theirs.totalBytes())];
                exchangeBytes(comm, data, bytes, theirs.payload, theirBytes);
            }
            return theirs;
        }

        /** The aggregator's write: every piece into one domain array, then its covered runs in file order. */
        void writeDomain(ChannelIo io) throws IOException {
            int pieces = meta.length / 2;
            if (pieces == 0) {
                return;
            }
            long low = covering()[0];
            byte[] domain = new byte[(int) (covering()[1] - low)];
            long from = 0;
            for (int p = 0; p < pieces; p++) {
                System.arraycopy(payload, (int) from, domain, (int) (meta[2 * p] - low), (int) meta[2 * p + 1]);
                from += meta[2 * p + 1];
            }
            MemorySegment segment = MemorySegment.ofArray(domain);
            for (long[] run : coveredRuns(pieces)) {
                io.write(segment, run[0] - low, run[1] - run[0], run[0]);
            }
        }

        /** The aggregator's read: its covering range at once, then each rank's pieces in the order it asked. */
        byte[] readDomain(ChannelIo io) throws IOException {
            int pieces = meta.length / 2;
            byte[] replies = new byte[Math.toIntExact(totalBytes())];
            if (pieces == 0) {
                return replies;
            }
            long low = covering()[0];
            byte[] domain = new byte[(int) (covering()[1] - low)];
            io.read(MemorySegment.ofArray(domain), 0, domain.length, low); // past the end of the file: zeros
            long to = 0;
            for (int p = 0; p < pieces; p++) {
                System.arraycopy(domain, (int) (meta[2 * p] - low), replies, (int) to, (int) meta[2 * p + 1]);
                to += meta[2 * p + 1];
            }
            return replies;
        }

        /** Sends each rank its pieces' bytes back ({@code mine}: what this rank asked for, into {@code back}). */
        void returnData(Communicator comm, byte[] replies, Exchange mine, byte[] back) {
            exchangeBytes(comm, replies, bytes, back, mine.bytes);
        }

        /** {@code {lowest offset, highest end}} of the pieces. */
        private long[] covering() {
            long low = Long.MAX_VALUE;
            long high = Long.MIN_VALUE;
            for (int p = 0; p < meta.length / 2; p++) {
                low = Math.min(low, meta[2 * p]);
                high = Math.max(high, meta[2 * p] + meta[2 * p + 1]);
            }
            return new long[] {low, high};
        }

        /** The pieces' union as sorted, disjoint {@code {start, end}} runs. */
        private long[][] coveredRuns(int pieces) {
            long[][] sorted = new long[pieces][];
            for (int p = 0; p < pieces; p++) {
                sorted[p] = new long[] {meta[2 * p], meta[2 * p] + meta[2 * p + 1]};
            }
            Arrays.sort(sorted, (a, b) -> Long.compare(a[0], b[0]));
            int runs = 0;
            for (long[] s : sorted) {
                if (runs > 0 && s[0] <= sorted[runs - 1][1]) {
                    sorted[runs - 1][1] = Math.max(sorted[runs - 1][1], s[1]);
                } else {
                    sorted[runs++] = s;
                }
            }
            return Arrays.copyOf(sorted, runs);
        }
    }

    /**
     * Sends block {@code r} of {@code out} to rank {@code r} and receives block {@code r} of {@code in} from it
     * (an all-to-all of bytes), by point-to-point messages in the file's own communicator: its large blocks go
     * straight to the methods' bulk paths, at their bandwidth.
     */
    private static void exchangeBytes(Communicator comm, byte[] out, int[] outCounts, byte[] in, int[] inCounts) {
        int n = comm.size();
        int me = comm.rank();
        int[] outStarts = starts(outCounts, 1);
        int[] inStarts = starts(inCounts, 1);
        MemorySegment outSegment = MemorySegment.ofArray(out);
        MemorySegment inSegment = MemorySegment.ofArray(in);
        DeviceRequest[] requests = new DeviceRequest[2 * n];
        for (int k = 1; k < n; k++) {
            int from = (me - k + n) % n;
            requests[2 * k] = PointToPoint.irecv(comm, inSegment.asSlice(inStarts[from], inCounts[from]), from,
                    DATA_TAG);
        }
        for (int k = 1; k < n; k++) {
            int to = (me + k) % n;
            requests[2 * k + 1] = PointToPoint.isend(comm, outSegment.asSlice(outStarts[to], outCounts[to]), to,
                    DATA_TAG, SendMode.STANDARD);
        }
        System.arraycopy(out, outStarts[me], in, inStarts[me], outCounts[me]);
        for (DeviceRequest request : requests) {
            if (request != null) {
                comm.device().await(request);
            }
        }
    }

    private static int[] starts(int[] counts, int times) {
        int[] starts = new int[counts.length];
        for (int i = 1; i < counts.length; i++) {
            starts[i] = starts[i - 1] + counts[i - 1] * times;
        }
        return starts;
    }

    private static long[] longs(int[] values) {
        return Arrays.stream(values).asLongStream().toArray();
    }

    private static int[] times(int[] counts, int factor) {
        int[] scaled = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            scaled[i] = counts[i] * factor;
        }
        return scaled;
    }
}
