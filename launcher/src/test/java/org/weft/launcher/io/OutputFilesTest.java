package org.weft.launcher.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Open MPI's --output-filename layout: DIR/1/rank.N, N padded to the digits of the world's size. */
class OutputFilesTest {
    @Test
    void ranksArePaddedToTheDigitsOfTheWorldsSize() {
        assertEquals(Path.of("/out/1/rank.3"), OutputFiles.of("/out", 4).rankDirectory(3));
        assertEquals(Path.of("/out/1/rank.03"), OutputFiles.of("/out", 10).rankDirectory(3));
        assertEquals(Path.of("/out/1/rank.011"), OutputFiles.of("/out:nocopy", 100).rankDirectory(11));
    }

    @Test
    void aRelativeDirectoryIsTheLaunchersAndAnEmptyOneIsRefused() {
        assertEquals(Path.of("out").toAbsolutePath().resolve("1/rank.0"), OutputFiles.of("out", 1).rankDirectory(0));
        assertThrows(IllegalArgumentException.class, () -> OutputFiles.of(":nocopy", 1));
    }
}
