package org.weft.mm.module.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.IntPredicate;
import org.weft.adi.SharedMemory;
import org.weft.mm.spi.SingleCopy;

/**
 * The shm module's memory for collectives ({@link SharedMemory}): files in the job directory beside the inboxes
 * (named {@code coll-NAME}), mapped as the inboxes are, and the module's doorbells to wake a peer that sleeps.
 * The launcher removes the job directory after the job, so even a segment whose name a crash left is not kept.
 */
public final class ShmSharedMemory implements SharedMemory {
    private static final boolean YAMA_RESTRICTS = yamaRestricts();
    private final ShmModule module;
    private final IntPredicate reaches;
    private final boolean runsAhead;
    /** Links by world rank, looked up once each: a wake on every collective must not box a rank. */
    private volatile ShmLink[] links = new ShmLink[0];

    /**
     * {@code reaches}: whether the device's link to a world rank is this module's (or is this process);
     * {@code runsAhead}: {@link #runsAhead}'s answer (the {@code coll_shm_ahead} parameter).
     */
    public ShmSharedMemory(ShmModule module, IntPredicate reaches, boolean runsAhead) {
        this.runsAhead = runsAhead;
        this.module = module;
        this.reaches = reaches;
    }

    @Override
    public boolean reaches(int worldRank) {
        return reaches.test(worldRank);
    }

    /**
     * Also binds the futex that lets ranks end each other's short parks when they wait on what they write here
     * ({@link Futex#bindInBackground}).
     */
    @Override
    public MemorySegment create(String name, long bytes, Arena arena) throws IOException {
        Futex.bindInBackground();
        SegmentRoom.check(module.jobDirectory(), bytes);
        try (FileChannel channel = FileChannel.open(path(name), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena); // grows the new file, zeroed
        }
    }

    /** As {@link #create}, it binds the futex. */
    @Override
    public MemorySegment open(String name, long bytes, Arena arena) throws IOException {
        Futex.bindInBackground();
        try (FileChannel channel = FileChannel.open(path(name), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (channel.size() < bytes) {
                throw new IOException(path(name) + " holds " + channel.size() + " bytes, not " + bytes);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        }
    }

    @Override
    public void remove(String name) {
        try {
            Files.deleteIfExists(path(name));
        } catch (IOException e) {
            // the launcher removes the job directory at the end anyway
        }
    }

    @Override
    public void wake(int worldRank) {
        ShmLink link = link(worldRank);
        if (link != null) {
            link.wakePeer();
        }
    }

    private ShmLink link(int worldRank) {
        ShmLink[] known = links;
        ShmLink link = worldRank < known.length ? known[worldRank] : null;
        return link != null ? link : remember(worldRank);
    }

    private synchronized ShmLink remember(int worldRank) {
        ShmLink link = module.linkTo(worldRank);
        if (link != null) {
            ShmLink[] grown = links;
            if (grown.length <= worldRank) {
                grown = java.util.Arrays.copyOf(grown, worldRank + 1);
            }
            grown[worldRank] = link;
            links = grown;
        }
        return link;
    }

    private Path path(String name) {
        if (name.isEmpty() || name.contains("/") || name.contains("..")) {
            throw new IllegalArgumentException("not a segment name: " + name);
        }
        return module.jobDirectory().resolve("coll-" + name);
    }

    @Override
    public boolean runsAhead() {
        return runsAhead;
    }

    /**
     * Through the link's single copy ({@link PeerMemoryReads}), when {@code shm_single_copy} is on and it has not
     * failed. Not where Yama restricts ptrace (a scope above 0): the kernel then refuses reads between the ranks,
     * which are siblings, and a collective should not learn that by failing.
     */
    @Override
    public boolean copiesPeerMemory(int worldRank) {
        SingleCopy single = singleCopy(worldRank);
        return single != null && !YAMA_RESTRICTS && single.works();
    }

    @Override
    public boolean copyFrom(int worldRank, long address, MemorySegment into, long at, long bytes) {
        SingleCopy single = singleCopy(worldRank);
        return single != null && single.copyFrom(address, into, at, bytes);
    }

    @Override
    public boolean copyTo(int worldRank, long address, MemorySegment from, long at, long bytes) {
        SingleCopy single = singleCopy(worldRank);
        return single != null && single.copyTo(address, from, at, bytes);
    }

    private SingleCopy singleCopy(int worldRank) {
        ShmLink link = link(worldRank);
        return link == null ? null : link.singleCopy();
    }

    /** Whether Yama's {@code ptrace_scope} is above 0 (no such file: no Yama). */
    private static boolean yamaRestricts() {
        try {
            return !Files.readString(Path.of("/proc/sys/kernel/yama/ptrace_scope")).trim().equals("0");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
