package org.weft.mm.module.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a new shared segment fits in the file system of the job directory. Segments are sparse files on a tmpfs
 * ({@code /dev/shm}), whose pages are taken when first written: a segment larger than the room left would be
 * created and mapped without complaint, and the write that finds the file system full kills the process with
 * {@code SIGBUS}. Containers often give {@code /dev/shm} only 64 MiB, so a segment may take at most half of the
 * room left (the other ranks of the host make theirs too); one that does not fit is refused with an
 * {@link IOException}, and its user falls back to memory of its own or to messages.
 */
final class SegmentRoom {
    private SegmentRoom() {
    }

    /** Throws if a segment of {@code bytes} bytes in {@code directory} would take more than half its room. */
    static void check(Path directory, long bytes) throws IOException {
        long usable = Files.getFileStore(directory).getUsableSpace();
        if (bytes > usable / 2) {
            throw new IOException("a shared segment of " + bytes + " bytes does not fit in " + directory + " ("
                    + usable + " bytes free; a segment may take half, the ranks of the host share it)");
        }
    }
}
