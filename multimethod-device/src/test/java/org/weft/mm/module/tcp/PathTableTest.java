package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The declared settings of wide-area paths: defaults, a file, then {@code tcp_paths}; pairs unordered; wildcards. */
class PathTableTest {
    @Test
    void aPairsSettingsApplyToItInEitherOrderOverTheDefaults() {
        PathTable table = PathTable.of("streams=auto,max=32", "", "a:b streams=16,window=8m;b:c pacing=300mbit");
        assertEquals(new PathSettings(16, 32, 256 << 10, 8 << 20, 0, 1 << 20), table.settings("b", "a"));
        assertEquals(300_000_000L / 8, table.settings("c", "b").pacing());
        assertTrue(table.settings("a", "c").isAuto());
        assertEquals(32, table.settings("a", "c").max());
    }

    @Test
    void theFileComesFirstAndAWildcardCoversEverySite(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("paths");
        Files.writeString(file, "# the cluster pair\n*:* chunk=1m\na:b streams=4   # four\n");
        PathTable table = PathTable.of("streams=auto", file.toString(), "a:b streams=8");
        assertEquals(8, table.settings("a", "b").streams());
        assertEquals(1 << 20, table.settings("a", "b").chunk());
        assertEquals(1 << 20, table.settings("x", "y").chunk());
    }

    @Test
    void badDeclarationsAreRefusedSayingWhy() {
        assertEquals("unknown path setting 'stream' (streams, max, chunk, window, pacing, min)",
                assertThrows(IllegalArgumentException.class, () -> PathTable.of("", "", "a:b stream=4"))
                        .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PathTable.of("", "", "a:b"))
                .getMessage().contains("is not SITE:SITE key=value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PathTable.of("", "", "a:b streams=500"))
                .getMessage().contains("[1, 128]"));
        assertEquals("path setting window: not a number: big",
                assertThrows(IllegalArgumentException.class, () -> PathTable.of("", "", "a:b window=big"))
                        .getMessage());
    }

    @Test
    void ratesAreBitsOrBytesPerSecond() {
        assertEquals(50_000_000L, PathSettings.rate("400mbit"));
        assertEquals(125_000_000L, PathSettings.rate("1gbit"));
        assertEquals(40L << 20, PathSettings.rate("40m"));
    }
}
