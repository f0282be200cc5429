package org.weft.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file's shared file pointer, kept in a small side file beside it ({@code .NAME.weft-shared-pointer}) that a
 * rank reads and advances under an exclusive lock: one 8-byte count of etypes, or no bytes while the pointer is
 * still at its initial value. A side file, as ROMIO does it, rather than a counter at rank 0 advanced by
 * messages: {@code MPI_File_write_shared} is independent, and rank 0 may be computing without calling MPI while
 * another rank moves the pointer, which messages could only serve with a progress thread at rank 0; the lock
 * works while rank 0 computes, and across hosts wherever the file system locks (NFS with lockd, Lustre).
 *
 * <p>A file lock is held by a process, not a thread: ranks that share a JVM (an in-process world) find the JVM's
 * own table of file locks in their way ({@code OverlappingFileLockException}) and wait for their turn, so no
 * state of Weft's is shared between them.
 */
final class SharedPointer {
    private final Path path;
    private volatile long initial;
    private FileChannel channel;

    SharedPointer(Path file, long initial) {
        this.path = file.resolveSibling("." + file.getFileName() + ".weft-shared-pointer");
        this.initial = initial;
    }

    Path path() {
        return path;
    }

    /** Deletes a side file left by an earlier job: done by rank 0 at open, before anyone uses the pointer. */
    void deleteStale() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a side file we cannot delete is one we cannot use either: the first shared access reports it
        }
    }

    /** Returns the pointer and advances it by {@code delta} etypes, atomically against every rank. */
    synchronized long fetchAndAdd(long delta) throws IOException {
        try (FileLock lock = ChannelIo.lock(channel(), 0, Long.MAX_VALUE, false)) {
            ByteBuffer value = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
            long stored = channel.read(value, 0) == Long.BYTES ? value.getLong(0) : initial;
            if (delta != 0) {
                value.clear();
                value.putLong(0, stored + delta);
                while (value.hasRemaining()) {
                    channel.write(value, value.position());
                }
            }
            return stored;
        }
    }

    /** Sets the pointer; a collective caller has every rank wait for it (done by one rank). */
    synchronized void set(long value) throws IOException {
        fetchAndAdd(value - fetchAndAdd(0));
    }

    /** Forgets the stored value: the pointer is {@code value} for every rank (called by all, in a collective). */
    synchronized void reset(long value, boolean owner) throws IOException {
        initial = value;
        if (owner && Files.exists(path)) {
            channel().truncate(0);
        }
    }

    /** Closes this rank's channel; {@code owner} (rank 0, after every rank closed) deletes the side file. */
    synchronized void close(boolean owner) throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
        if (owner) {
            Files.deleteIfExists(path);
        }
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }
        return channel;
    }
}
