package org.weft.mm.module;

import java.lang.foreign.MemorySegment;

/**
 * Copies of message data in pieces no larger than {@link #CHUNK}: on JDK 25 one copy of 2.5 MiB or more switches to
 * cache-bypassing stores and runs at half speed (measured for issue 3), and whoever reads the data next wants it in
 * cache. Shared by the modules that copy payloads (shm's ring, nativempi's staging buffers).
 */
public final class CacheSizedCopy {
    public static final long CHUNK = 1L << 20;

    private CacheSizedCopy() {
    }

    /** {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)}, a mebibyte at a time. */
    public static void copy(MemorySegment from, long fromOffset, MemorySegment to, long toOffset, long bytes) {
        for (long done = 0; done < bytes; done += CHUNK) {
            MemorySegment.copy(from, fromOffset + done, to, toOffset + done, Math.min(CHUNK, bytes - done));
        }
    }
}
