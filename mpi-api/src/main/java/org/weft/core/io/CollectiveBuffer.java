package org.weft.core.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The memory of a file's two-phase accesses, kept from one collective call to the next: the window an aggregator
 * fills and writes (or reads and serves), the exchange area that holds the bytes other ranks send it (or that it
 * sends them), both in native memory so that the channel reads and writes them in place, and the runs a window's
 * pieces cover. Grown when a call needs more, freed when the file closes. Used under the file's lock.
 */
final class CollectiveBuffer implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private MemorySegment window = MemorySegment.NULL;
    private MemorySegment exchange = MemorySegment.NULL;
    /** Covered runs of the current window, {@code start, end} pairs; each rank's runs in file order. */
    private long[] runs = new long[256];
    private int runCount;
    /** Where each rank's runs begin in {@link #runs}; entry {@code ranks} is the end. */
    private int[] rankStarts = new int[0];
    private int[] heads = new int[0];
    private int rank;

    /** The window buffer, of at least {@code bytes}. */
    MemorySegment window(long bytes) {
        if (window.byteSize() < bytes) {
            window = arena.allocate(bytes, 4096);
        }
        return window;
    }

    /** The exchange area, of at least {@code bytes}. */
    MemorySegment exchange(long bytes) {
        if (exchange.byteSize() < bytes) {
            exchange = arena.allocate(Math.max(bytes, 2 * exchange.byteSize()), 4096);
        }
        return exchange;
    }

    /** Starts recording the covered runs of a window, for {@code ranks} ranks in rank order. */
    void beginCoverage(int ranks) {
        if (rankStarts.length < ranks + 1) {
            rankStarts = new int[ranks + 1];
            heads = new int[ranks];
        }
        runCount = 0;
        rank = -1;
        for (int r = 0; r <= ranks; r++) {
            rankStarts[r] = 0;
        }
    }

    /** Records that rank {@code r}'s pieces cover {@code [start, start + length)}; each rank's in file order. */
    void cover(int r, long start, long length) {
        while (rank < r) {
            rankStarts[++rank] = runCount;
        }
        if (runCount > rankStarts[r] && runs[2 * runCount - 1] == start) {
            runs[2 * runCount - 1] = start + length; // touches the rank's previous run
            return;
        }
        if (2 * runCount + 2 > runs.length) {
            runs = java.util.Arrays.copyOf(runs, 2 * runs.length);
        }
        runs[2 * runCount] = start;
        runs[2 * runCount + 1] = start + length;
        runCount++;
    }

    /**
     * Writes the union of the covered runs of {@code ranks} ranks from the window (whose first byte is file byte
     * {@code windowStart}): one positional write per stretch of covered bytes, one in all when the ranks' pieces
     * tile the window.
     */
    void writeCovered(ChannelIo io, int ranks, long windowStart) throws IOException {
        while (rank < ranks) {
            rankStarts[++rank] = runCount;
        }
        for (int r = 0; r < ranks; r++) {
            heads[r] = rankStarts[r];
        }
        long from = -1;
        long to = -1;
        while (true) {
            int next = -1; // the rank whose next run starts first
            for (int r = 0; r < ranks; r++) {
                if (heads[r] < rankStarts[r + 1] && (next < 0 || runs[2 * heads[r]] < runs[2 * heads[next]])) {
                    next = r;
                }
            }
            if (next < 0) {
                break;
            }
            long start = runs[2 * heads[next]];
            long end = runs[2 * heads[next] + 1];
            heads[next]++;
            if (from >= 0 && start <= to) {
                to = Math.max(to, end);
                continue;
            }
            if (from >= 0) {
                io.write(window, from - windowStart, to - from, from);
            }
            from = start;
            to = end;
        }
        if (from >= 0) {
            io.write(window, from - windowStart, to - from, from);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
