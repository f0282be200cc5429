package org.weft.core.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.SendMode;
import org.weft.core.comm.Communicator;
import org.weft.core.io.CollectiveBuffer.CoveredWindow;
import org.weft.core.p2p.PointToPoint;

/**
 * Collective reads and writes ({@code MPI_File_write_all} and kin) by two-phase I/O, as ROMIO does it, when the
 * ranks' accesses interleave ({@link CollectiveAccess} decides). The span of all accesses is cut into one file
 * domain per rank (the aggregators, {@link FileDomains}), which each aggregator takes a window of
 * {@code cb_buffer_size} bytes at a time (half of it for a write): in each cycle, for a write, every rank sends
 * each aggregator the bytes that fall in its window, the aggregator places them and its writer thread writes the
 * window's covered bytes (one positional write when they tile it) while the aggregator goes on to the next cycle
 * with the other half; for a read, the aggregator reads its window's covering range in one call and sends every
 * rank its bytes.
 *
 * <p>Every rank knows every rank's view, so no offsets travel, and, as a view's stream runs in file order, the
 * bytes of a rank that fall in one window are one slice of its packed data: a sender sends that slice as it is
 * (native data) or staged in native memory (heap data, so that the shm module moves it in one copy rather than
 * through its ring), and a reader receives its slice in place. Then the aggregator copies between the window and
 * the slices; the window is native memory, which the channel writes without a staging copy.
 *
 * <p>A rank whose file access fails goes on with the exchange to the end and the ranks then agree on the outcome
 * ({@link Agreement}), so that a failure on one rank fails the call on all.
 */
final class TwoPhase {
    /** The tag of the data messages, in the file's own communicator. */
    private static final int DATA_TAG = 1;

    private final CollectiveAccess access;
    private final CollectiveBuffer buffer;
    private final ChannelIo io;
    private final EagerWriteback writeback;
    private final Communicator comm;
    /**
     * A cycle's requests: for a write, receives from rank r at r and sends to aggregator a at ranks + a; for a
     * read, receives from aggregator a at a and sends to rank r at ranks + r.
     */
    private final DeviceRequest[] requests;
    /** Bytes of the outgoing area taken by this cycle's slices so far. */
    private long staged;
    /** The first failure of this rank's file accesses; after it, the rank only exchanges. */
    private IOException failure;

    private TwoPhase(CollectiveAccess access, CollectiveBuffer buffer, ChannelIo io, EagerWriteback writeback) {
        this.access = access;
        this.writeback = writeback;
        this.buffer = buffer;
        this.io = io;
        this.comm = access.comm();
        this.requests = new DeviceRequest[2 * access.ranks()];
    }

    /**
     * A collective write of {@code data} at stream byte {@code position} of {@code view}, on every rank of the file;
     * a rank that {@code refused} the call (a bad argument; {@code data} is then empty) takes part and every rank
     * throws. An aggregator whose write fails goes on receiving its windows' bytes, so that no sender waits for
     * it, and every rank throws after the last cycle ({@link Agreement}).
     */
    static void write(OpenFile file, ChannelIo io, ViewLayout view, long position, MemorySegment data,
                      DeviceException refused) {
        String verb = "cannot write";
        CollectiveAccess access = CollectiveAccess.of(file, view, position, data.byteSize(), "romio_cb_write",
                2, refused, verb + " " + file.name());
        IOException failure = null;
        try {
            if (access == null) {
                file.writeRuns(position, data);
            } else {
                failure = new TwoPhase(access, file.collectiveBuffer(), io, file.writeback()).writeCycles(data);
            }
        } catch (IOException e) {
            failure = e;
        }
        agree(file, verb, failure);
    }

    /**
     * A collective read into {@code target} from stream byte {@code position} of {@code view}: returns the bytes
     * that lie before the end of the file. Fails as {@link #write} does: on every rank.
     */
    static long read(OpenFile file, ChannelIo io, ViewLayout view, long position, MemorySegment target,
                     DeviceException refused) {
        String verb = "cannot read";
        CollectiveAccess access = CollectiveAccess.of(file, view, position, target.byteSize(), "romio_cb_read",
                1, refused, verb + " " + file.name());
        IOException failure = null;
        long readable = 0;
        try {
            if (access == null) {
                readable = file.readRuns(position, target.byteSize(), target);
            } else {
                readable = Math.clamp(view.streamBefore(io.channel().size()) - position, 0, target.byteSize());
            }
        } catch (IOException e) {
            failure = e;
        }
        if (access != null) {
            IOException cycles = new TwoPhase(access, file.collectiveBuffer(), io, EagerWriteback.NONE)
                    .readCycles(target);
            failure = failure == null ? cycles : failure;
        }
        agree(file, verb, failure);
        return readable;
    }

    /** The end of a collective access: every rank learns whether one's {@code failure} (to {@code verb}) happened. */
    private static void agree(OpenFile file, String verb, IOException failure) {
        Agreement.agree(file.communicator(), failure == null ? null : IoFailures.of(verb, file.name(), failure),
                verb + " " + file.name());
    }

    /**
     * Every cycle of a write, then the end of the background writes; returns the first failure of this rank's
     * writes, or {@code null}.
     */
    private IOException writeCycles(MemorySegment data) {
        for (int cycle = 0; cycle < access.domains().cycles(); cycle++) {
            writeCycle(cycle, data);
        }
        try {
            buffer.awaitWrites();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        return failure;
    }

    /** Every cycle of a read; returns the first failure of this rank's reads, or {@code null}. */
    private IOException readCycles(MemorySegment target) {
        for (int cycle = 0; cycle < access.domains().cycles(); cycle++) {
            readCycle(cycle, target);
        }
        return failure;
    }

    /**
     * One cycle of a write: receive the other ranks' slices for this rank's window, send this rank's slices to
     * the other aggregators, place every rank's pieces into the window in rank order (so that where pieces overlap
     * the higher rank's bytes win, as if the ranks wrote one after another), write the covered bytes. After a
     * failed write the rank still receives, but places and writes nothing more.
     */
    private void writeCycle(int cycle, MemorySegment data) {
        int n = access.ranks();
        int me = comm.rank();
        long lo = access.domains().windowStart(me, cycle);
        long hi = access.domains().windowEnd(me, cycle);
        MemorySegment incoming = buffer.exchange(access.othersBytes(lo, hi));
        forEachSliceIn(lo, hi, (r, from, bytes, at) -> {
            if (r != me) {
                requests[r] = PointToPoint.irecv(comm, incoming.asSlice(at, bytes), r, DATA_TAG);
            }
        });
        MemorySegment outgoing = data.isNative() ? data : buffer.outgoing(sentBytes(cycle));
        staged = 0;
        forMySlices(cycle, n, (a, from, bytes) ->
                PointToPoint.isend(comm, outgoingSlice(data, outgoing, from, bytes), a, DATA_TAG, SendMode.STANDARD));
        if (hi > lo && failure == null) {
            placeAndWrite(lo, hi, data, incoming);
        }
        awaitAll();
    }

    /**
     * Places every rank's pieces of the window {@code [lo, hi)} into the next of the buffer's two windows, in rank
     * order, and has the writer thread write them while this rank goes on to the next cycle's exchange.
     */
    private void placeAndWrite(long lo, long hi, MemorySegment data, MemorySegment incoming) {
        int n = access.ranks();
        int me = comm.rank();
        CoveredWindow covered;
        try {
            covered = buffer.nextWindow(access.domains().cycleBytes());
        } catch (IOException e) {
            failure = e; // the write two cycles ago failed: nothing more to place (the receives are awaited later)
            return;
        }
        MemorySegment window = covered.memory();
        covered.beginCoverage(n);
        forEachSliceIn(lo, hi, (r, from, bytes, at) -> {
            MemorySegment source = r == me ? data : incoming;
            long sourceBase = r == me ? from : at;
            if (r != me) {
                await(r);
            }
            access.view(r).runs(access.position(r) + from, bytes, (fileOffset, length, dataOffset) -> {
                MemorySegment.copy(source, sourceBase + dataOffset, window, fileOffset - lo, length);
                covered.cover(r, fileOffset, length);
            });
        });
        buffer.writeInBackground(covered, io, n, lo, hi, writeback);
    }

    /**
     * One cycle of a read: post this rank's receives straight into its slices of the target, read the covering
     * range of this rank's window (zeros past the end of the file), send every rank its pieces, copy its own.
     * After a failed read the rank sends zeros where the file's bytes should be, so that no reader waits.
     */
    private void readCycle(int cycle, MemorySegment target) {
        int n = access.ranks();
        int me = comm.rank();
        forMySlices(cycle, 0, (a, from, bytes) ->
                PointToPoint.irecv(comm, target.asSlice(from, bytes), a, DATA_TAG));
        long lo = access.domains().windowStart(me, cycle);
        long hi = access.domains().windowEnd(me, cycle);
        long[] covering = access.covering(lo, hi);
        if (covering[1] > covering[0]) {
            MemorySegment window = buffer.window(access.domains().cycleBytes()).memory();
            long length = covering[1] - covering[0];
            long got = readWindow(window, covering[0] - lo, length, covering[0]);
            window.asSlice(covering[0] - lo + got, length - got).fill((byte) 0);
            serve(lo, hi, window, target);
        }
        awaitAll();
    }

    /** Sends every other rank its pieces of the window {@code [lo, hi)}, copies this rank's into {@code target}. */
    private void serve(long lo, long hi, MemorySegment window, MemorySegment target) {
        int n = access.ranks();
        int me = comm.rank();
        MemorySegment outgoing = buffer.exchange(access.othersBytes(lo, hi));
        forEachSliceIn(lo, hi, (r, from, bytes, at) -> {
            MemorySegment sink = r == me ? target : outgoing;
            long sinkBase = r == me ? from : at;
            access.view(r).runs(access.position(r) + from, bytes, (fileOffset, runLength, dataOffset) ->
                    MemorySegment.copy(window, fileOffset - lo, sink, sinkBase + dataOffset, runLength));
            if (r != me) {
                requests[n + r] = PointToPoint.isend(comm, outgoing.asSlice(at, bytes), r, DATA_TAG,
                        SendMode.STANDARD);
            }
        });
    }

    /** A rank's slice of the data of a window: see {@link #forEachSliceIn}. */
    @FunctionalInterface
    private interface RankSlice {
        void visit(int rank, long from, long bytes, long exchangeAt);
    }

    /**
     * For each rank with bytes in the window {@code [lo, hi)}, in rank order: the slice {@code [from, from + bytes)}
     * of its data that lies there, and, for a rank other than this one, where its slice lies in the exchange area
     * (after the other ranks' slices before it).
     */
    private void forEachSliceIn(long lo, long hi, RankSlice visit) {
        long at = 0;
        for (int r = 0; r < access.ranks(); r++) {
            long from = access.dataAt(r, lo);
            long bytes = access.dataAt(r, hi) - from;
            if (bytes > 0) {
                visit.visit(r, from, bytes, at);
                at += r == comm.rank() ? 0 : bytes;
            }
        }
    }

    /**
     * Reads {@code length} file bytes from {@code position} into {@code window} at {@code from}; returns how many
     * there were before the end of the file, none after a failure.
     */
    private long readWindow(MemorySegment window, long from, long length, long position) {
        if (failure != null) {
            return 0;
        }
        try {
            return io.read(window, from, length, position);
        } catch (IOException e) {
            failure = e;
            return 0;
        }
    }

    /** The bytes this rank sends the other aggregators in {@code cycle}. */
    private long sentBytes(int cycle) {
        long bytes = 0;
        for (int a = 0; a < access.ranks(); a++) {
            if (a != comm.rank()) {
                bytes += access.dataAt(comm.rank(), access.domains().windowEnd(a, cycle))
                        - access.dataAt(comm.rank(), access.domains().windowStart(a, cycle));
            }
        }
        return bytes;
    }

    /**
     * The slice {@code [from, from + bytes)} of this rank's {@code data} to send: itself when the data is native
     * memory; else a copy of it in the native {@code outgoing} area, after the slices staged before in this cycle.
     * Native memory moves between the processes of a host in one copy by the receiver
     * ({@code process_vm_readv}, the shm module's single copy) and two hand-offs, where heap memory crosses the
     * shm ring a fragment at a time, each fragment waiting for both processes to run: the staging copy here takes
     * the place of the ring's copy in.
     */
    private MemorySegment outgoingSlice(MemorySegment data, MemorySegment outgoing, long from, long bytes) {
        if (outgoing == data) {
            return data.asSlice(from, bytes);
        }
        MemorySegment slice = outgoing.asSlice(staged, bytes);
        MemorySegment.copy(data, from, slice, 0, bytes);
        staged += bytes;
        return slice;
    }

    /** Posts a message for this rank's slice of data in another aggregator's window of this cycle. */
    @FunctionalInterface
    private interface SlicePost {
        DeviceRequest post(int aggregator, long from, long bytes);
    }

    /**
     * For each other aggregator whose window of {@code cycle} holds bytes of this rank's access, {@code post} of
     * that slice of the rank's data, its request at {@code requests[first + aggregator]}.
     */
    private void forMySlices(int cycle, int first, SlicePost post) {
        int n = access.ranks();
        int me = comm.rank();
        for (int k = 1; k < n; k++) {
            int a = (me + k) % n;
            long from = access.dataAt(me, access.domains().windowStart(a, cycle));
            long to = access.dataAt(me, access.domains().windowEnd(a, cycle));
            if (to > from) {
                requests[first + a] = post.post(a, from, to - from);
            }
        }
    }

    private void await(int index) {
        comm.device().await(requests[index]);
        requests[index] = null;
    }

    private void awaitAll() {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null) {
                await(i);
            }
        }
    }
}
