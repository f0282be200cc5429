package org.weft.mm.module.nativempi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class StagingBuffersTest {
    @Test
    void buffersComeInPowerOfTwoSizesAndAreReusedOnceGivenBack() {
        StagingBuffers buffers = new StagingBuffers();
        MemorySegment first = buffers.take((1 << 20) + 1);
        assertEquals(2L << 20, first.byteSize());
        assertTrue(first.isNative(), "libmpi gets its address");
        MemorySegment second = buffers.take(3 << 20);
        assertNotSame(first, second);
        buffers.release(first);
        assertSame(first, buffers.take(2 << 20), "a buffer of the same size class is reused");
        assertEquals(4096, buffers.take(1).byteSize(), "the smallest buffer is a page");
        buffers.close();
    }

    @Test
    void idleBuffersHoldNoMoreThanTheLimit() {
        StagingBuffers buffers = new StagingBuffers();
        long size = StagingBuffers.KEPT_BYTES / 2;
        MemorySegment a = buffers.take(size);
        MemorySegment b = buffers.take(size);
        MemorySegment c = buffers.take(size); // beyond the limit: the collector's, not kept
        buffers.release(a);
        buffers.release(b);
        buffers.release(c);
        assertSame(a, buffers.take(size));
        assertSame(b, buffers.take(size));
        assertNotSame(c, buffers.take(size), "the third was over the limit and dropped");
        buffers.close();
    }
}
