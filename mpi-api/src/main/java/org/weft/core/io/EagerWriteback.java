package org.weft.core.io;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * Starts the writeback of the bytes a two-phase aggregator has just written ({@code sync_file_range} with
 * {@code SYNC_FILE_RANGE_WRITE}, as RocksDB's {@code bytes_per_sync}), so that the disk works while the ranks
 * exchange the next windows and a later {@code MPI_File_sync} finds little left to do; without it the whole file
 * waits in the page cache until the sync (or the kernel's own writeback, seconds later). Advisory: it changes when
 * the bytes reach the disk, never what the file holds, and a call that fails is ignored. Needs Linux and native
 * access; elsewhere, or with the file hint {@code weft_writeback=lazy}, it does nothing. One per open file, on a
 * descriptor of its own (the range is the file's, whichever descriptor names it).
 */
final class EagerWriteback implements AutoCloseable {
    /** Does nothing: where the call is not there, or the file asked for lazy writeback. */
    static final EagerWriteback NONE = new EagerWriteback(-1);
    private static final int O_RDONLY_CLOEXEC = 0x80000;
    private static final int SYNC_FILE_RANGE_WRITE = 2;
    private static final MethodHandle OPEN;
    private static final MethodHandle CLOSE;
    private static final MethodHandle SYNC_FILE_RANGE;

    static {
        MethodHandle open = null;
        MethodHandle close = null;
        MethodHandle syncFileRange = null;
        if (System.getProperty("os.name").equals("Linux")
                && EagerWriteback.class.getModule().isNativeAccessEnabled()) {
            try {
                Linker linker = Linker.nativeLinker();
                var libc = linker.defaultLookup();
                open = linker.downcallHandle(libc.find("open").orElseThrow(), FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
                close = linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                syncFileRange = linker.downcallHandle(libc.find("sync_file_range").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
            } catch (RuntimeException | LinkageError e) {
                syncFileRange = null; // not there: writeback stays the kernel's
            }
        }
        OPEN = open;
        CLOSE = close;
        SYNC_FILE_RANGE = syncFileRange;
    }

    private final int fd;

    private EagerWriteback(int fd) {
        this.fd = fd;
    }

    /** Eager writeback of {@code path}, or {@link #NONE} when {@code hint} is "lazy" or it cannot be had here. */
    static EagerWriteback of(Path path, String hint) {
        if (SYNC_FILE_RANGE == null || "lazy".equalsIgnoreCase(hint)) {
            return NONE;
        }
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(path.toString()), O_RDONLY_CLOEXEC);
            return fd < 0 ? NONE : new EagerWriteback(fd);
        } catch (Throwable e) {
            return NONE;
        }
    }

    /** Starts writing {@code length} bytes of the file from {@code offset} to the disk, without waiting. */
    void start(long offset, long length) {
        if (fd < 0 || length <= 0) {
            return;
        }
        try {
            int ignored = (int) SYNC_FILE_RANGE.invokeExact(fd, offset, length, SYNC_FILE_RANGE_WRITE);
        } catch (Throwable e) {
            // advisory: the bytes are written all the same, the sync waits for them
        }
    }

    @Override
    public void close() {
        if (fd >= 0) {
            try {
                int ignored = (int) CLOSE.invokeExact(fd);
            } catch (Throwable e) {
                // nothing to free but the descriptor
            }
        }
    }
}
