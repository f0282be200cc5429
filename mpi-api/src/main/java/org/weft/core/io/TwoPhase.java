package org.weft.core.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceRequest;
import org.weft.adi.SendMode;
import org.weft.core.comm.Communicator;
import org.weft.core.p2p.PointToPoint;

/**
 * Collective reads and writes ({@code MPI_File_write_all} and kin) by two-phase I/O, as ROMIO does it, when the
 * ranks' accesses interleave ({@link CollectiveAccess} decides). The span of all accesses is cut into one file
 * domain per rank (the aggregators, {@link FileDomains}), which each aggregator takes a window of
 * {@code cb_buffer_size} bytes at a time: in each cycle, for a write, every rank sends each aggregator the bytes
 * that fall in its window, the aggregator places them and writes the window's covered bytes in one positional
 * write when they tile it; for a read, the aggregator reads its window's covering range in one call and sends
 * every rank its bytes.
 *
 * <p>Every rank knows every rank's view, so no offsets travel, and, as a view's stream runs in file order, the
 * bytes of a rank that fall in one window are one slice of its packed data: a sender sends that slice as it is
 * and a reader receives its slice in place. The one copy on the way is the aggregator's, between the window and
 * the slices (no grouping copy at the sender, no staging copy before the write: the window is native memory).
 */
final class TwoPhase {
    /** The tag of the data messages, in the file's own communicator. */
    private static final int DATA_TAG = 1;

    private TwoPhase() {
    }

    static void write(OpenFile file, ChannelIo io, ViewLayout view, long position, MemorySegment data)
            throws IOException {
        CollectiveAccess access = CollectiveAccess.of(file, view, position, data.byteSize(), "romio_cb_write");
        if (access == null) {
            file.writeRuns(position, data);
            return;
        }
        CollectiveBuffer buffer = file.collectiveBuffer();
        DeviceRequest[] requests = new DeviceRequest[2 * access.ranks()];
        for (int cycle = 0; cycle < access.domains().cycles(); cycle++) {
            writeCycle(access, cycle, data, buffer, io, requests);
        }
    }

    static long read(OpenFile file, ChannelIo io, ViewLayout view, long position, MemorySegment target)
            throws IOException {
        CollectiveAccess access = CollectiveAccess.of(file, view, position, target.byteSize(), "romio_cb_read");
        if (access == null) {
            return io.readView(view, position, target.byteSize(), target);
        }
        long readable = Math.clamp(view.streamBefore(io.channel().size()) - position, 0, target.byteSize());
        CollectiveBuffer buffer = file.collectiveBuffer();
        DeviceRequest[] requests = new DeviceRequest[2 * access.ranks()];
        for (int cycle = 0; cycle < access.domains().cycles(); cycle++) {
            readCycle(access, cycle, target, buffer, io, requests);
        }
        return readable;
    }

    /**
     * One cycle of a write: receive the other ranks' slices for this rank's window, send this rank's slices to
     * the other aggregators, place every rank's pieces into the window in rank order (so that where pieces overlap
     * the higher rank's bytes win, as if the ranks wrote one after another), write the covered bytes.
     */
    private static void writeCycle(CollectiveAccess access, int cycle, MemorySegment data, CollectiveBuffer buffer,
                                   ChannelIo io, DeviceRequest[] requests) throws IOException {
        Communicator comm = access.comm();
        int n = access.ranks();
        int me = comm.rank();
        long lo = access.domains().windowStart(me, cycle);
        long hi = access.domains().windowEnd(me, cycle);
        MemorySegment incoming = buffer.exchange(access.othersBytes(lo, hi));
        long at = 0;
        for (int r = 0; r < n; r++) {
            long bytes = access.dataAt(r, hi) - access.dataAt(r, lo);
            if (r != me && bytes > 0) {
                requests[r] = PointToPoint.irecv(comm, incoming.asSlice(at, bytes), r, DATA_TAG);
                at += bytes;
            }
        }
        forMySlices(access, cycle, requests, n, (a, from, bytes) ->
                PointToPoint.isend(comm, data.asSlice(from, bytes), a, DATA_TAG, SendMode.STANDARD));
        if (hi > lo) {
            MemorySegment window = buffer.window(access.domains().cycleBytes());
            buffer.beginCoverage(n);
            long taken = 0;
            for (int r = 0; r < n; r++) {
                long from = access.dataAt(r, lo);
                long bytes = access.dataAt(r, hi) - from;
                if (bytes <= 0) {
                    continue;
                }
                MemorySegment source = r == me ? data : incoming;
                long sourceBase = r == me ? from : taken;
                if (r != me) {
                    await(comm, requests, r);
                    taken += bytes;
                }
                int rank = r;
                access.view(r).runs(access.position(r) + from, bytes, (fileOffset, length, dataOffset) -> {
                    MemorySegment.copy(source, sourceBase + dataOffset, window, fileOffset - lo, length);
                    buffer.cover(rank, fileOffset, length);
                });
            }
            buffer.writeCovered(io, n, lo);
        }
        awaitAll(comm, requests);
    }

    /**
     * One cycle of a read: post this rank's receives straight into its slices of the target, read the covering
     * range of this rank's window (zeros past the end of the file), send every rank its pieces, copy its own.
     */
    private static void readCycle(CollectiveAccess access, int cycle, MemorySegment target, CollectiveBuffer buffer,
                                  ChannelIo io, DeviceRequest[] requests) throws IOException {
        Communicator comm = access.comm();
        int n = access.ranks();
        int me = comm.rank();
        forMySlices(access, cycle, requests, 0, (a, from, bytes) ->
                PointToPoint.irecv(comm, target.asSlice(from, bytes), a, DATA_TAG));
        long lo = access.domains().windowStart(me, cycle);
        long hi = access.domains().windowEnd(me, cycle);
        long[] covering = access.covering(lo, hi);
        if (covering[1] > covering[0]) {
            MemorySegment window = buffer.window(access.domains().cycleBytes());
            long length = covering[1] - covering[0];
            long got = io.read(window, covering[0] - lo, length, covering[0]);
            window.asSlice(covering[0] - lo + got, length - got).fill((byte) 0);
            MemorySegment outgoing = buffer.exchange(access.othersBytes(lo, hi));
            long at = 0;
            for (int r = 0; r < n; r++) {
                long from = access.dataAt(r, lo);
                long bytes = access.dataAt(r, hi) - from;
                if (bytes <= 0) {
                    continue;
                }
                MemorySegment sink = r == me ? target : outgoing;
                long sinkBase = r == me ? from : at;
                access.view(r).runs(access.position(r) + from, bytes, (fileOffset, runLength, dataOffset) ->
                        MemorySegment.copy(window, fileOffset - lo, sink, sinkBase + dataOffset, runLength));
                if (r != me) {
                    requests[n + r] = PointToPoint.isend(comm, outgoing.asSlice(at, bytes), r, DATA_TAG,
                            SendMode.STANDARD);
                    at += bytes;
                }
            }
        }
        awaitAll(comm, requests);
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
    private static void forMySlices(CollectiveAccess access, int cycle, DeviceRequest[] requests, int first,
                                    SlicePost post) {
        int n = access.ranks();
        int me = access.comm().rank();
        for (int k = 1; k < n; k++) {
            int a = (me + k) % n;
            long from = access.dataAt(me, access.domains().windowStart(a, cycle));
            long to = access.dataAt(me, access.domains().windowEnd(a, cycle));
            if (to > from) {
                requests[first + a] = post.post(a, from, to - from);
            }
        }
    }

    private static void await(Communicator comm, DeviceRequest[] requests, int index) {
        comm.device().await(requests[index]);
        requests[index] = null;
    }

    private static void awaitAll(Communicator comm, DeviceRequest[] requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null) {
                await(comm, requests, i);
            }
        }
    }
}
