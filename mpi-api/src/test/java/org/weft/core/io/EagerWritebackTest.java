package org.weft.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eager writeback binds where it can (Linux with native access, as the tests run), is off with the hint
 * {@code weft_writeback=lazy} or for a file it cannot open, and changes nothing in the file it is started on.
 */
class EagerWritebackTest {
    @TempDir
    Path dir;

    @Test
    void startsTheWritebackOfWrittenBytesWithoutChangingThem() throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "sync_file_range is Linux's");
        Path file = dir.resolve("written");
        byte[] bytes = new byte[1 << 20];
        new java.util.Random(7).nextBytes(bytes);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             EagerWriteback writeback = EagerWriteback.of(file, null)) {
            assertNotSame(EagerWriteback.NONE, writeback, "no eager writeback on Linux with native access");
            channel.write(ByteBuffer.wrap(bytes), 0);
            writeback.start(0, bytes.length);
            writeback.start(bytes.length, 4096); // past the end: nothing to write, no failure
        }
        assertArrayEquals(bytes, Files.readAllBytes(file));
    }

    @Test
    void isOffWhenTheFileAsksForLazyWritebackOrCannotBeOpened() {
        assertSame(EagerWriteback.NONE, EagerWriteback.of(dir.resolve("any"), "lazy"));
        assertSame(EagerWriteback.NONE, EagerWriteback.of(dir.resolve("missing"), null));
        EagerWriteback.NONE.start(0, 100); // does nothing
    }
}
