package org.weft.mm.module.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.mm.module.ThreadDumps;
import org.weft.mm.tls.JobTls;

/**
 * {@link TlsWire} encrypts straight from the writer's buffers and decrypts straight into the reader's when a whole
 * record fits there (through its own buffer when not): whatever the sizes on either side, the reader gets every byte
 * in order. Both wires over a loopback socket in one thread, non-blocking, as the pollers drive them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsWireTest {
    /** How long the exchange may stall before it counts as stuck: milliseconds idle, seconds at load 100. */
    private static final long STUCK_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** What the reader had at the last check, for {@link #checkStuck}. */
    private int progressMark = -1;

    @Test
    void gatheredWritesOfAnySizeArriveIntactInReadsOfAnySize() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (TlsWire client = TlsWire.client(open(SocketChannel.open(listener.getLocalAddress())),
                    JobTls.create("job", "secret", 1).engine(0, true), new byte[0]);
                 TlsWire server = TlsWire.server(open(listener.accept()),
                         JobTls.create("job", "secret", 0).engine(1, false))) {
                // A header and a payload as a link gathers them: one small write, one of many records with a ragged
                // end, one of a record's size exactly; the reads range from a few bytes to more than a record.
                int[][] writes = {{48, 0}, {48, 64}, {48, (1 << 20) + 13}, {0, 16 * 1024}, {7, 3 * 16 * 1024 + 1}};
                int[] reads = {1, 100, 16 * 1024 - 1, 16 * 1024 + 64, 1 << 18, 5000};
                exchange(client, server, writes, reads);
                exchange(server, client, writes, reads); // and the other way, over the same session
            }
        }
    }

    /** Writes {@code writes} (pairs of gathered lengths) on {@code writer} and reads them on {@code reader}. */
    private void exchange(TlsWire writer, TlsWire reader, int[][] writes, int[] reads) throws IOException {
        int total = 0;
        for (int[] pair : writes) {
            total += pair[0] + pair[1];
        }
        ByteBuffer[] gather = new ByteBuffer[2];
        ByteBuffer received = ByteBuffer.allocate(total);
        long seed = 22;
        SplittableRandom pattern = new SplittableRandom(seed);
        int read = 0;
        long deadline = System.nanoTime() + STUCK_NANOS;
        for (int w = 0; w < writes.length; w++) {
            gather[0] = pattern(pattern, writes[w][0], false);
            gather[1] = pattern(pattern, writes[w][1], true);
            while (gather[0].hasRemaining() || gather[1].hasRemaining() || writer.hasPendingOutput()) {
                if (gather[0].hasRemaining() || gather[1].hasRemaining()) {
                    writer.write(gather, 0, 2);
                } else {
                    writer.flush();
                }
                read = readSome(reader, received, reads[read % reads.length], read);
                deadline = checkStuck(deadline, received.position(), "writing message " + w);
            }
        }
        while (received.hasRemaining()) {
            read = readSome(reader, received, reads[read % reads.length], read);
            deadline = checkStuck(deadline, received.position(), "reading the last messages");
        }
        SplittableRandom expected = new SplittableRandom(seed);
        received.flip();
        for (int i = 0; i < total; i++) {
            assertEquals((byte) expected.nextInt(), received.get(i), "byte " + i + " of " + total);
        }
    }

    /** One read of at most {@code size} bytes into {@code received}; returns the count of reads so far. */
    private static int readSome(TlsWire reader, ByteBuffer received, int size, int reads) throws IOException {
        int limit = received.limit();
        received.limit(Math.min(limit, received.position() + size));
        try {
            if (reader.read(received) < 0) {
                fail("the connection closed");
            }
        } finally {
            received.limit(limit);
        }
        return reads + 1;
    }

    private static ByteBuffer pattern(SplittableRandom pattern, int length, boolean direct) {
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            buffer.put((byte) pattern.nextInt());
        }
        return buffer.flip();
    }

    /** A new deadline when bytes arrived since the last call, else {@code deadline}, failing once it is past. */
    private long checkStuck(long deadline, int position, String what) {
        if (position != progressMark) {
            progressMark = position;
            return System.nanoTime() + STUCK_NANOS;
        }
        if (System.nanoTime() - deadline > 0) {
            fail("TLS exchange stuck " + what + "\n" + ThreadDumps.dump());
        }
        return deadline;
    }

    private static SocketChannel open(SocketChannel socket) throws IOException {
        socket.configureBlocking(false);
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return socket;
    }
}
