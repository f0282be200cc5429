package org.weft.mm.module.shm;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

import org.weft.mm.spi.SingleCopy;

/**
 * The single copy of an shm link: the receiver reads a large message out of the peer process's memory with
 * {@link CrossMemoryAttach}, bound at the first read ({@link LazyCrossMemory}); a large collective's writer may
 * also write into the peer's memory ({@link #copyTo}). Offered for native memory only (a
 * Java heap array moves), and taken into native memory only (the system call is given addresses). A read the kernel
 * refuses (the peer's credentials, a seccomp profile that allows a process to read only itself) turns the link's
 * reads off for good, said once: the data then comes through the ring.
 */
final class PeerMemoryReads implements SingleCopy {
    private final LazyCrossMemory cma;
    private final long peerPid;
    private final int peerRank;
    private final Consumer<String> log;
    private volatile boolean refused;

    PeerMemoryReads(LazyCrossMemory cma, long peerPid, int peerRank, Consumer<String> log) {
        this.cma = cma;
        this.peerPid = peerPid;
        this.peerRank = peerRank;
        this.log = log;
    }

    @Override
    public boolean offers(MemorySegment data) {
        return data.isNative() && data.byteSize() > 0;
    }

    @Override
    public boolean copyFrom(long address, MemorySegment into) {
        return copy(address, into, 0, into.byteSize(), false);
    }

    @Override
    public boolean copyFrom(long address, MemorySegment into, long at, long bytes) {
        return copy(address, into, at, bytes, false);
    }

    @Override
    public boolean copyTo(long address, MemorySegment from, long at, long bytes) {
        return copy(address, from, at, bytes, true);
    }

    @Override
    public boolean works() {
        return !refused && cma.get() != null;
    }

    private boolean copy(long address, MemorySegment local, long at, long bytes, boolean write) {
        if (refused || !local.isNative()) {
            return false;
        }
        CrossMemoryAttach bound = cma.get();
        if (bound == null) { // it cannot work here, as the binding said
            return false;
        }
        int errno = write ? bound.write(peerPid, address, local, at, bytes)
                : bound.read(peerPid, address, local, at, bytes);
        if (errno == 0) {
            return true;
        }
        if (!refused) {
            refused = true;
            log.accept((write ? "writing" : "reading") + " rank " + peerRank + "'s memory (process " + peerPid + ") failed with errno " + errno
                    + ": its large messages come through the ring from now on");
        }
        return false;
    }
}
