package org.weft.core.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.util.concurrent.locks.LockSupport;

/**
 * Positional reads and writes of a {@link FileChannel} from and to memory segments, and the sieve of independent
 * noncontiguous reads. Direct memory is read or written in place; arrays go through a direct staging buffer a
 * chunk at a time. One instance per open file; its callers hold the file's lock.
 */
final class ChannelIo {
    /** Bytes of the staging buffer and of the sieve: what ROMIO reads at once for data sieving (4 MiB). */
    static final int CHUNK = 4 << 20;
    /** How long a rank waits before it tries again for a lock another rank of its JVM holds. */
    private static final long LOCK_RETRY_NANOS = 20_000;

    private final FileChannel channel;
    private ByteBuffer staging;
    private MemorySegment stagingSegment;

    ChannelIo(FileChannel channel) {
        this.channel = channel;
    }

    FileChannel channel() {
        return channel;
    }

    /** Writes {@code length} bytes of {@code source} from {@code from} at file byte {@code position}. */
    void write(MemorySegment source, long from, long length, long position) throws IOException {
        if (hasBufferView(source)) {
            ByteBuffer buffer = source.asSlice(from, length).asByteBuffer();
            long at = position;
            while (buffer.hasRemaining()) {
                at += channel.write(buffer, at);
            }
            return;
        }
        ByteBuffer stage = staging();
        MemorySegment stageSegment = stagingSegment;
        for (long done = 0; done < length; ) {
            int n = (int) Math.min(CHUNK, length - done);
            MemorySegment.copy(source, from + done, stageSegment, 0, n);
            stage.clear().limit(n);
            long at = position + done;
            while (stage.hasRemaining()) {
                at += channel.write(stage, at);
            }
            done += n;
        }
    }

    /**
     * Reads up to {@code length} bytes at file byte {@code position} into {@code target} from {@code from}; returns
     * the bytes read, fewer only at the end of the file.
     */
    long read(MemorySegment target, long from, long length, long position) throws IOException {
        if (hasBufferView(target)) {
            return readFully(target.asSlice(from, length).asByteBuffer(), position);
        }
        ByteBuffer stage = staging();
        MemorySegment stageSegment = stagingSegment;
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(CHUNK, length - done);
            stage.clear().limit(n);
            int got = (int) readFully(stage, position + done);
            MemorySegment.copy(stageSegment, 0, target, from + done, got);
            done += got;
            if (got < n) {
                break;
            }
        }
        return done;
    }

    /** Fills {@code buffer} from file byte {@code position} up to the end of the file; returns the bytes read. */
    long readFully(ByteBuffer buffer, long position) throws IOException {
        long done = 0;
        while (buffer.hasRemaining()) {
            int got = channel.read(buffer, position + done);
            if (got < 0) {
                break;
            }
            done += got;
        }
        return done;
    }

    private ByteBuffer staging() {
        if (staging == null) {
            staging = ByteBuffer.allocateDirect(CHUNK);
            stagingSegment = MemorySegment.ofBuffer(staging.duplicate());
        }
        return staging;
    }

    /**
     * Direct memory goes to the channel as it is; heap memory (any array) through the staging buffer, a chunk at a
     * time, since the JDK would copy a heap buffer into a temporary direct buffer of its whole size and keep that
     * cached for the thread.
     */
    private static boolean hasBufferView(MemorySegment segment) {
        return segment.isNative();
    }

    /**
     * Locks {@code size} bytes of {@code channel}'s file from {@code position} against other processes, and against
     * other ranks of this JVM: a file lock belongs to a process, so a rank that finds another of its JVM holding an
     * overlapping one ({@code OverlappingFileLockException}, from the JDK's own table of the JVM's locks) waits
     * for its turn.
     */
    static FileLock lock(FileChannel channel, long position, long size, boolean shared) throws IOException {
        while (true) {
            try {
                return channel.lock(position, size, shared);
            } catch (OverlappingFileLockException e) {
                LockSupport.parkNanos(LOCK_RETRY_NANOS);
            }
        }
    }

    /** Writes {@code data} at the stream bytes from {@code position} of {@code view}: one call per run. */
    void writeView(ViewLayout view, long position, MemorySegment data) throws IOException {
        IOException[] failure = new IOException[1];
        view.runs(position, data.byteSize(), (fileOffset, length, dataOffset) -> {
            if (failure[0] == null) {
                try {
                    write(data, dataOffset, length, fileOffset);
                } catch (IOException e) {
                    failure[0] = e;
                }
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /**
     * Reads the stream bytes {@code [position, position + length)} of {@code view} into {@code target} and returns
     * how many of them lie before the end of the file. A dense noncontiguous view (at least a quarter of the file
     * bytes it spans are its own) is read by data sieving: the covering file bytes {@link #CHUNK} at a time, and
     * the runs copied out of them, so that the system calls are a handful whatever the number of runs; a sparse
     * one is read a run at a time.
     */
    long readView(ViewLayout view, long position, long length, MemorySegment target) throws IOException {
        if (length == 0) {
            return 0;
        }
        long fileSize = channel.size();
        long[] span = view.span(position, length);
        Sieve sieve = new Sieve(fileSize, Math.min(span[1], fileSize),
                !view.isContiguous() && length * 4 >= span[1] - span[0], target);
        view.runs(position, length, sieve);
        if (sieve.failure != null) {
            throw sieve.failure;
        }
        return sieve.readable;
    }

    /** The sink of {@link #readView}: one run at a time, through the sieve or straight. */
    private final class Sieve implements ViewLayout.RunSink {
        private final long fileSize;
        private final long coverEnd;
        private final boolean sieving;
        private final MemorySegment target;
        private MemorySegment window;
        private long windowStart;
        private long windowBytes;
        long readable;
        boolean ended;
        IOException failure;

        Sieve(long fileSize, long coverEnd, boolean sieving, MemorySegment target) {
            this.fileSize = fileSize;
            this.coverEnd = coverEnd;
            this.sieving = sieving;
            this.target = target;
        }

        @Override
        public void run(long fileOffset, long length, long dataOffset) {
            if (ended || failure != null) {
                return;
            }
            long inFile = Math.max(0, Math.min(length, fileSize - fileOffset));
            try {
                if (sieving) {
                    copyThroughWindow(fileOffset, inFile, dataOffset);
                } else if (inFile > 0) {
                    inFile = read(target, dataOffset, inFile, fileOffset);
                }
            } catch (IOException e) {
                failure = e;
                return;
            }
            readable = dataOffset + inFile;
            ended = inFile < length;
        }

        private void copyThroughWindow(long fileOffset, long length, long dataOffset) throws IOException {
            for (long done = 0; done < length; ) {
                long at = fileOffset + done;
                if (at < windowStart || at >= windowStart + windowBytes) {
                    fill(at);
                }
                long n = Math.min(length - done, windowStart + windowBytes - at);
                MemorySegment.copy(window, at - windowStart, target, dataOffset + done, n);
                done += n;
            }
        }

        private void fill(long at) throws IOException {
            ByteBuffer stage = staging();
            window = stagingSegment;
            stage.clear().limit((int) Math.min(CHUNK, coverEnd - at));
            windowStart = at;
            windowBytes = readFully(stage, at);
            if (windowBytes == 0) {
                throw new IOException("the file shrank while it was read");
            }
        }
    }
}
