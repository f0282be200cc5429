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

/**
 * The shm module's memory for collectives ({@link SharedMemory}): files in the job directory beside the inboxes
 * (named {@code coll-NAME}), mapped as the inboxes are, and the module's doorbells to wake a peer that sleeps.
 * The launcher removes the job directory after the job, so even a segment whose name a crash left is not kept.
 */
public final class ShmSharedMemory implements SharedMemory {
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
        ShmLink[] known = links;
        ShmLink link = worldRank < known.length ? known[worldRank] : null;
        if (link == null) {
            link = remember(worldRank);
        }
        if (link != null) {
            link.wakePeer();
        }
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
}
