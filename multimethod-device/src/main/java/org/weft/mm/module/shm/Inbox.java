package org.weft.mm.module.shm;

import static org.weft.mm.module.shm.RingAccess.COUNTER;
import static org.weft.mm.module.shm.RingAccess.INT;
import static org.weft.mm.module.shm.RingAccess.LONG;
import static org.weft.mm.module.shm.RingLayout.CAPACITY_OFFSET;
import static org.weft.mm.module.shm.RingLayout.DOORBELL_PORT_OFFSET;
import static org.weft.mm.module.shm.RingLayout.FILE_HEADER_LENGTH;
import static org.weft.mm.module.shm.RingLayout.MAGIC;
import static org.weft.mm.module.shm.RingLayout.MAGIC_OFFSET;
import static org.weft.mm.module.shm.RingLayout.OWNER_OFFSET;
import static org.weft.mm.module.shm.RingLayout.RING_COUNT_OFFSET;
import static org.weft.mm.module.shm.RingLayout.VERSION;
import static org.weft.mm.module.shm.RingLayout.VERSION_OFFSET;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The inbox files: creating this process's own (with its file header) and mapping the ring a sender owns in a
 * peer's. Layout: {@link RingLayout}. Files are sparse: a ring's pages cost memory only once used.
 */
final class Inbox {
    private Inbox() {
    }

    /** The inbox of {@code rank} in {@code jobDir}. */
    static Path path(Path jobDir, int rank) {
        return jobDir.resolve("shm-" + rank);
    }

    /**
     * Creates {@code file} (it must not exist: another job or module instance owning it is an error) with
     * {@code rings} empty rings of {@code capacity} bytes, mapped into {@code arena}; returns the whole mapping.
     */
    static MemorySegment create(Path file, int owner, int rings, long capacity, int doorbellPort, Arena arena)
            throws IOException {
        long length = RingLayout.fileLength(rings, capacity);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(1), length - 1); // sets the length without touching the pages between
            MemorySegment inbox = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            inbox.set(INT, VERSION_OFFSET, VERSION);
            inbox.set(INT, RING_COUNT_OFFSET, rings);
            inbox.set(LONG, CAPACITY_OFFSET, capacity);
            inbox.set(INT, OWNER_OFFSET, owner);
            inbox.set(INT, DOORBELL_PORT_OFFSET, doorbellPort);
            inbox.set(LONG, RingLayout.OWNER_PID_OFFSET, ProcessHandle.current().pid());
            COUNTER.setRelease(inbox, (long) MAGIC_OFFSET, MAGIC); // last: a reader that sees it sees the rest
            return inbox;
        }
    }

    /** A sender's view of a peer's inbox: its file header (the doorbell's port and flag) and the sender's ring. */
    record PeerInbox(MemorySegment header, MemorySegment ring) {
        /** The ring's data bytes (the control block comes first). */
        long capacity() {
            return ring.byteSize() - RingLayout.CONTROL_LENGTH;
        }
    }

    /**
     * Maps, from the inbox {@code file}, its file header and the ring that {@code sender} writes there (control block
     * and data area) into {@code arena}. Throws {@link IOException} when the file is not a usable inbox for that
     * sender.
     */
    static PeerInbox mapFor(Path file, int sender, Arena arena) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_LENGTH).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
                // a short read of a tmpfs file is unusual, but allowed
            }
            if (header.position() < FILE_HEADER_LENGTH || header.getLong(MAGIC_OFFSET) != MAGIC) {
                throw new IOException(file + " is not a Weft shm inbox");
            }
            int version = header.getInt(VERSION_OFFSET);
            int rings = header.getInt(RING_COUNT_OFFSET);
            long capacity = header.getLong(CAPACITY_OFFSET);
            if (version != VERSION || sender >= rings || Long.bitCount(capacity) != 1
                    || capacity < RingLayout.MIN_CAPACITY || capacity > RingLayout.MAX_CAPACITY
                    || channel.size() < RingLayout.fileLength(rings, capacity)) {
                throw new IOException(file + ": inbox of version " + version + ", " + rings + " rings of " + capacity
                        + " bytes, " + channel.size() + " bytes long: no ring for rank " + sender);
            }
            return new PeerInbox(channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_HEADER_LENGTH, arena),
                    channel.map(FileChannel.MapMode.READ_WRITE, RingLayout.ringOffset(sender, capacity),
                            RingLayout.ringLength(capacity), arena));
        }
    }
}
