package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentRoomTest {
    @TempDir
    Path directory;

    @Test
    void aSegmentThatFitsWithRoomToSpareIsAllowed() throws IOException {
        long usable = Files.getFileStore(directory).getUsableSpace();
        assertDoesNotThrow(() -> SegmentRoom.check(directory, Math.min(1 << 20, usable / 4)));
    }

    @Test
    void aSegmentLargerThanHalfTheRoomLeftIsRefusedNamingTheDirectory() throws IOException {
        long usable = Files.getFileStore(directory).getUsableSpace();
        IOException refused = assertThrows(IOException.class, () -> SegmentRoom.check(directory, usable / 2 + 4096));
        assertTrue(refused.getMessage().contains(directory.toString()), refused.getMessage());
    }
}
