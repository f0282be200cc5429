package org.weft.wan.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The bulk probe's receiver measures the rate the bytes came at, not more. */
class ProbeServerTest {
    private static final int CHUNK = 1 << 16;

    /**
     * Three 64 KiB reads 100 ms apart carry 128 KiB in the 200 ms between the first and the last: the first read's
     * bytes came before the clock started (counting them said 192 KiB in 200 ms, 1.5 times the rate).
     */
    @Test
    void theFirstReadsBytesAreNotCountedInTheTimeThatStartsWithIt() throws IOException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        ProbeServer.sink(new DataInputStream(new PacedChunks(3, 100)), new DataOutputStream(answer));
        ByteBuffer reply = ByteBuffer.wrap(answer.toByteArray());
        long bytes = reply.getLong();
        long nanos = reply.getLong();
        assertEquals(2L * CHUNK, bytes);
        assertTrue(nanos >= TimeUnit.MILLISECONDS.toNanos(200), nanos + " ns");
    }

    /** {@code count} reads of 64 KiB, each but the first after {@code millis} ms. */
    private static final class PacedChunks extends InputStream {
        private final long millis;
        private int left;
        private boolean first = true;

        PacedChunks(int count, long millis) {
            this.left = count;
            this.millis = millis;
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException("reads chunks");
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (left == 0) {
                return -1;
            }
            left--;
            if (!first) {
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            first = false;
            return Math.min(length, CHUNK);
        }
    }
}
