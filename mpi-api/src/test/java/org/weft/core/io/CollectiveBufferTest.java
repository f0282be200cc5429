package org.weft.core.io;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The memory of two-phase accesses stays near what the largest access needs: a program whose collective accesses
 * grow a little at a time (a window a little larger each call) does not keep every smaller window it had before.
 * The buffer lives as long as the rank ({@link SpareCollectiveBuffer}), so what it kept was never given back.
 */
class CollectiveBufferTest {
    private static final long STEP = 128 << 10;
    private static final int STEPS = 32;
    private static final Path STATUS = Path.of("/proc/self/status");

    @Test
    void windowsThatGrowGiveTheirOldMemoryBack() throws Exception {
        assumeTrue(Files.isReadable(STATUS), "the process's resident memory is read from /proc");
        long before = residentAnonymousBytes();
        try (CollectiveBuffer buffer = new CollectiveBuffer("weft-io-writer-test")) {
            for (int step = 1; step <= STEPS; step++) {
                buffer.window(step * STEP); // a read's
                buffer.nextWindow(step * STEP); // a write's two
                buffer.nextWindow(step * STEP);
            }
            long largest = 3 * STEPS * STEP; // 12 MiB; keeping every window held 198 MiB
            long held = residentAnonymousBytes() - before;
            assertTrue(held < 2 * largest, "windows of " + largest + " bytes in all hold " + held
                    + " bytes of memory");
        }
    }

    /** The process's resident anonymous memory (the native memory it touched, the heap's pages among it). */
    private static long residentAnonymousBytes() throws IOException {
        for (String line : Files.readAllLines(STATUS)) {
            if (line.startsWith("RssAnon:")) {
                return 1024 * Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no RssAnon in " + STATUS);
    }
}
