package org.weft.core.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The memory of a file's two-phase accesses, kept from one collective call to the next: two windows an aggregator
 * fills and writes (or reads and serves), the exchange area that holds the bytes other ranks send it (or that it
 * sends them), the outgoing area where a rank stages the slices of heap data it sends, all in native memory so that
 * the channel reads and writes them in place and the shm module moves them in one copy, and the writer thread
 * that writes one window while the aggregator exchanges and fills the other (double buffering, as ROMIO's GPFS
 * driver does with a thread). Grown when a call needs more, kept for the next file when the file closes
 * ({@link SpareCollectiveBuffer}). Used under the file's lock, and by the writer for the window it was handed.
 */
final class CollectiveBuffer implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final String writerName;
    private final CoveredWindow[] windows = {new CoveredWindow(), new CoveredWindow()};
    private int next;
    private MemorySegment exchange = MemorySegment.NULL;
    private MemorySegment outgoing = MemorySegment.NULL;
    private ExecutorService writer;

    /** {@code writerName}: the name of the writer thread, when there is one. */
    CollectiveBuffer(String writerName) {
        this.writerName = writerName;
    }

    /**
     * The window of a read, of at least {@code bytes}, once a background write of it has ended (one still runs only
     * after a write that failed midway; its failure was that call's).
     */
    CoveredWindow window(long bytes) {
        CoveredWindow window = windows[0];
        try {
            window.awaitWrite();
        } catch (IOException e) {
            // the write's call has failed already
        }
        return window.ofAtLeast(bytes);
    }

    /**
     * The window a write fills next, of at least {@code bytes}, once the background write of what it held before
     * has ended; throws that write's failure.
     */
    CoveredWindow nextWindow(long bytes) throws IOException {
        CoveredWindow window = windows[next];
        next = 1 - next;
        window.awaitWrite();
        return window.ofAtLeast(bytes);
    }

    /**
     * Writes {@code window}'s covered runs (see {@link CoveredWindow#writeCovered}) on the writer thread, then has
     * {@code writeback} start writing the file's bytes {@code [windowStart, windowEnd)} to the disk.
     */
    void writeInBackground(CoveredWindow window, ChannelIo io, int ranks, long windowStart, long windowEnd,
                           EagerWriteback writeback) {
        if (writer == null) {
            writer = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name(writerName).factory());
        }
        window.pending = writer.submit(() -> {
            try {
                window.writeCovered(io, ranks, windowStart);
                writeback.start(windowStart, windowEnd - windowStart);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Waits for every background write; throws the first one's failure. */
    void awaitWrites() throws IOException {
        IOException failure = null;
        for (CoveredWindow window : windows) {
            try {
                window.awaitWrite();
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The exchange area, of at least {@code bytes}. */
    MemorySegment exchange(long bytes) {
        exchange = atLeast(exchange, bytes);
        return exchange;
    }

    /** The outgoing area, where a write stages slices of heap data to send, of at least {@code bytes}. */
    MemorySegment outgoing(long bytes) {
        outgoing = atLeast(outgoing, bytes);
        return outgoing;
    }

    /** {@code area} if it holds {@code bytes}, else a new area of the arena at least twice as large. */
    private MemorySegment atLeast(MemorySegment area, long bytes) {
        return area.byteSize() >= bytes ? area : arena.allocate(Math.max(bytes, 2 * area.byteSize()), 4096);
    }

    @Override
    public void close() {
        if (writer != null) {
            writer.close(); // waits for a write still running (none: every collective write waits for its own)
        }
        for (CoveredWindow window : windows) {
            window.free();
        }
        arena.close();
    }

    /**
     * The memory of one window and the runs its pieces cover, and the background write of it still running, if any.
     */
    static final class CoveredWindow {
        /**
         * The window's own memory, so that a larger window gives the smaller one back: windows grow with the
         * accesses (a window is as large as the domain when that is smaller than {@code cb_buffer_size}), and
         * the buffer lives as long as the rank.
         */
        private Arena arena;
        private MemorySegment memory = MemorySegment.NULL;
        /** Covered runs of the current window, {@code start, end} pairs; each rank's runs in file order. */
        private long[] runs = new long[256];
        private int runCount;
        /** Where each rank's runs begin in {@link #runs}; entry {@code ranks} is the end. */
        private int[] rankStarts = new int[0];
        private int[] heads = new int[0];
        private int rank;
        private Future<?> pending;

        MemorySegment memory() {
            return memory;
        }

        /** This window with memory of at least {@code bytes}; no write of it runs. */
        private CoveredWindow ofAtLeast(long bytes) {
            if (memory.byteSize() < bytes) {
                free();
                arena = Arena.ofShared(); // the writer thread writes from it
                memory = arena.allocate(bytes, 4096);
            }
            return this;
        }

        /** Gives the window's memory back; no write of it runs. */
        private void free() {
            if (arena != null) {
                memory = MemorySegment.NULL;
                arena.close();
                arena = null;
            }
        }

        /** Waits for the background write of this window, if one runs; throws its failure. */
        private void awaitWrite() throws IOException {
            if (pending == null) {
                return;
            }
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        pending.get();
                        return;
                    } catch (InterruptedException e) {
                        interrupted = true; // the write must end before its memory is reused: wait on
                    } catch (ExecutionException e) {
                        throw e.getCause() instanceof UncheckedIOException u ? u.getCause()
                                : new IOException("a background write failed", e.getCause());
                    }
                }
            } finally {
                pending = null;
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
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
         * Writes the union of the covered runs of {@code ranks} ranks from the window (whose first byte is file
         * byte {@code windowStart}): one positional write per stretch of covered bytes, one in all when the ranks'
         * pieces tile the window.
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
                int first = -1; // the rank whose next run starts first
                for (int r = 0; r < ranks; r++) {
                    if (heads[r] < rankStarts[r + 1] && (first < 0 || runs[2 * heads[r]] < runs[2 * heads[first]])) {
                        first = r;
                    }
                }
                if (first < 0) {
                    break;
                }
                long start = runs[2 * heads[first]];
                long end = runs[2 * heads[first] + 1];
                heads[first]++;
                if (from >= 0 && start <= to) {
                    to = Math.max(to, end);
                    continue;
                }
                if (from >= 0) {
                    io.write(memory, from - windowStart, to - from, from);
                }
                from = start;
                to = end;
            }
            if (from >= 0) {
                io.write(memory, from - windowStart, to - from, from);
            }
        }
    }
}
