package org.weft.bench.tls;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import org.weft.mm.tls.JobTls;

/**
 * The CPU that TLS adds to a message, apart from any scheduling: two ranks' engines ({@link JobTls}) in one thread,
 * a record encrypted by one and decrypted by the other, timed in the thread's CPU time (so a loaded machine gives
 * figures near an idle one's), with the records in heap buffers as {@code TlsWire} keeps them and in direct buffers
 * for comparison (the plaintext in direct buffers, as MPI's are). Prints the CPU per message of 0 B (one record of a
 * frame header) and the rate of 1 MiB messages, both sides together and each apart (the ceiling of one side of a
 * connection: a sender encrypts, a receiver decrypts), medians of 7 runs after warm-up. Not an MPI job: {@code java -cp 'benchmarks/target/benchmarks-VERSION.jar:
 * benchmarks/target/lib/*' org.weft.bench.tls.TlsCipherCost}.
 */
public final class TlsCipherCost {
    private static final int FRAME_HEADER = 48;
    private static final int MIB = 1 << 20;

    private TlsCipherCost() {
    }

    public static void main(String[] args) throws SSLException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (boolean heap : new boolean[] {true, false}) {
            SSLEngine client = JobTls.create("job", "secret", 1).engine(0, true);
            SSLEngine server = JobTls.create("job", "secret", 0).engine(1, false);
            handshake(client, server);
            // The plaintext in direct buffers, as MPI's and the stream's are; the kind of the records' buffer is
            // what sets the cipher's speed (it encrypts and decrypts there, in place).
            ByteBuffer app = allocate(false, MIB);
            ByteBuffer net = allocate(heap, MIB + 128 * client.getSession().getPacketBufferSize() / 16);
            ByteBuffer out = allocate(false, MIB + server.getSession().getApplicationBufferSize());
            double[] small = new double[7];
            double[] large = new double[7];
            double[] encrypt = new double[7];
            double[] decrypt = new double[7];
            for (int run = -3; run < 7; run++) {
                long start = threads.getCurrentThreadCpuTime();
                int n = 100_000;
                for (int i = 0; i < n; i++) {
                    roundTrip(client, server, app.clear().limit(FRAME_HEADER), net, out);
                }
                long mid = threads.getCurrentThreadCpuTime();
                int m = 200;
                long wrapping = 0;
                for (int i = 0; i < m; i++) {
                    long before = threads.getCurrentThreadCpuTime();
                    wrapAll(client, app.clear(), net);
                    wrapping += threads.getCurrentThreadCpuTime() - before;
                    unwrapAll(server, net, out);
                }
                long end = threads.getCurrentThreadCpuTime();
                if (run >= 0) {
                    small[run] = (mid - start) / 1e3 / n;
                    large[run] = megabytesPerSecond(m, end - mid);
                    encrypt[run] = megabytesPerSecond(m, wrapping);
                    decrypt[run] = megabytesPerSecond(m, end - mid - wrapping);
                }
            }
            System.out.printf("records in %s buffers: a %d-byte record encrypted and decrypted: %.2f us of CPU;"
                    + " 1 MiB messages: %.0f MB/s of CPU (encrypting %.0f, decrypting %.0f)%n",
                    heap ? "heap" : "direct", FRAME_HEADER, median(small), median(large), median(encrypt),
                    median(decrypt));
        }
    }

    private static double megabytesPerSecond(int messages, long nanos) {
        return (double) MIB * messages / (nanos / 1e9) / 1e6;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static ByteBuffer allocate(boolean heap, int bytes) {
        return heap ? ByteBuffer.allocate(bytes) : ByteBuffer.allocateDirect(bytes);
    }

    /** {@code app} encrypted by {@code client} into records, decrypted by {@code server}. */
    private static void roundTrip(SSLEngine client, SSLEngine server, ByteBuffer app, ByteBuffer net, ByteBuffer out)
            throws SSLException {
        wrapAll(client, app, net);
        unwrapAll(server, net, out);
    }

    /** {@code app} encrypted by {@code client} into records in {@code net}, which is left ready to read. */
    private static void wrapAll(SSLEngine client, ByteBuffer app, ByteBuffer net) throws SSLException {
        net.clear();
        while (app.hasRemaining()) {
            client.wrap(app, net);
        }
        net.flip();
    }

    /** The records in {@code net} decrypted by {@code server} into {@code out}. */
    private static void unwrapAll(SSLEngine server, ByteBuffer net, ByteBuffer out) throws SSLException {
        out.clear();
        while (net.hasRemaining()) {
            server.unwrap(net, out);
        }
    }

    private static void handshake(SSLEngine client, SSLEngine server) throws SSLException {
        ByteBuffer toServer = ByteBuffer.allocate(1 << 16);
        ByteBuffer toClient = ByteBuffer.allocate(1 << 16);
        ByteBuffer sink = ByteBuffer.allocate(1 << 17);
        client.beginHandshake();
        server.beginHandshake();
        for (int i = 0; i < 200 && !(done(client) && done(server)); i++) {
            toClient.flip();
            step(client, toClient, toServer, sink);
            toClient.compact();
            toServer.flip();
            step(server, toServer, toClient, sink);
            toServer.compact();
        }
    }

    private static boolean done(SSLEngine engine) {
        return engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING;
    }

    private static void step(SSLEngine engine, ByteBuffer in, ByteBuffer out, ByteBuffer sink) throws SSLException {
        switch (engine.getHandshakeStatus()) {
            case NEED_TASK -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
            }
            case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> engine.unwrap(in, sink.clear());
            default -> { }
        }
    }
}
