package org.weft.mm.module.tcp;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import org.weft.mm.tls.JobTls;

/**
 * The CPU a {@link TlsWire} spends, in thread CPU time (so a loaded machine gives figures near an idle one's), against
 * a {@link PlainWire} over the same loopback socket: (1) a write retried on a full socket, as a poller retries a
 * large message, and (2) a ping-pong of small frames between two threads that wait in a selector, both sides' CPU
 * per message. Not a test and not an MPI job (the wires are the tcp module's own): {@code java -cp
 * 'multimethod-device/target/classes:multimethod-device/target/test-classes:benchmarks/target/lib/*'
 * org.weft.mm.module.tcp.TlsWireCost [PAYLOAD_BYTES]} (default 0: a 48-byte frame header alone). Medians of 5 runs.
 */
public final class TlsWireCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int HEADER = 48;
    private static final int RUNS = 5;

    private TlsWireCost() {
    }

    public static void main(String[] args) throws Exception {
        int payload = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        double[] retry = new double[RUNS];
        double[][] pingPong = new double[2][RUNS];
        for (int run = -1; run < RUNS; run++) { // the first run warms up
            double r = retryOnFullSocket();
            double plain = pingPong(false, payload, 20_000);
            double tls = pingPong(true, payload, 20_000);
            if (run >= 0) {
                retry[run] = r;
                pingPong[0][run] = plain;
                pingPong[1][run] = tls;
            }
        }
        System.out.printf("TLS write retried on a full socket: %.2f us of CPU%n", median(retry));
        System.out.printf("ping-pong of %d-byte frames, both sides' CPU a message: plaintext %.2f us, TLS %.2f us"
                + " (+%.2f)%n", HEADER + payload, median(pingPong[0]), median(pingPong[1]),
                median(pingPong[1]) - median(pingPong[0]));
    }

    /** Fills the socket and the wire (nobody reads), then times flushes that find the socket full. */
    private static double retryOnFullSocket() throws IOException {
        Wire[] wires = connect(true);
        try {
            ByteBuffer message = ByteBuffer.allocateDirect(1 << 20);
            for (int i = 0; i < 200; i++) {
                wires[0].write(message.clear());
            }
            int n = 20_000;
            long start = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                wires[0].flush();
            }
            return (THREADS.getCurrentThreadCpuTime() - start) / 1e3 / n;
        } finally {
            close(wires);
        }
    }

    /** {@code n} round trips; returns both threads' CPU per one-way message in microseconds. */
    private static double pingPong(boolean tls, int payload, int n) throws Exception {
        Wire[] wires = connect(tls);
        long[] echoCpu = new long[1];
        Exception[] failure = new Exception[1];
        Thread echo = new Thread(() -> {
            try {
                long start = THREADS.getCurrentThreadCpuTime();
                exchange(wires[1], payload, n, false);
                echoCpu[0] = THREADS.getCurrentThreadCpuTime() - start;
            } catch (Exception e) {
                failure[0] = e;
            }
        });
        try {
            echo.start();
            long start = THREADS.getCurrentThreadCpuTime();
            exchange(wires[0], payload, n, true);
            long mine = THREADS.getCurrentThreadCpuTime() - start;
            echo.join();
            if (failure[0] != null) {
                throw failure[0];
            }
            return (mine + echoCpu[0]) / 1e3 / (2.0 * n);
        } finally {
            close(wires);
        }
    }

    /** {@code n} frames sent and received on {@code wire} ({@code first}: this side sends first). */
    private static void exchange(Wire wire, int payload, int n, boolean first) throws IOException {
        ByteBuffer[] frame = {ByteBuffer.allocateDirect(HEADER), ByteBuffer.allocateDirect(payload)};
        ByteBuffer in = ByteBuffer.allocateDirect(HEADER + payload);
        try (Selector selector = Selector.open()) {
            SelectionKey key = wire.socket().register(selector, 0);
            for (int i = 0; i < n; i++) {
                if (!first) {
                    receive(wire, in.clear(), key);
                }
                frame[0].clear();
                frame[1].clear();
                send(wire, frame, key);
                if (first) {
                    receive(wire, in.clear(), key);
                }
            }
        }
    }

    private static void send(Wire wire, ByteBuffer[] frame, SelectionKey key) throws IOException {
        while (frame[0].hasRemaining() || frame[1].hasRemaining()) {
            if (wire.write(frame, 0, 2) == 0) {
                await(key, SelectionKey.OP_WRITE);
            }
        }
        while (wire.hasPendingOutput()) {
            if (wire.flush() == 0 && wire.hasPendingOutput()) {
                await(key, SelectionKey.OP_WRITE);
            }
        }
    }

    private static void receive(Wire wire, ByteBuffer in, SelectionKey key) throws IOException {
        while (in.hasRemaining()) {
            int n = wire.read(in);
            if (n < 0) {
                throw new IOException("the connection closed");
            }
            if (n == 0 && !wire.hasBufferedInput()) {
                await(key, SelectionKey.OP_READ);
            }
        }
    }

    private static void await(SelectionKey key, int operation) throws IOException {
        key.interestOps(operation);
        key.selector().select(100);
        key.selector().selectedKeys().clear();
    }

    /** A connected pair over loopback, the handshake done when {@code tls}: the dialling end first. */
    private static Wire[] connect(boolean tls) throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = open(SocketChannel.open(listener.getLocalAddress()));
            SocketChannel server = open(listener.accept());
            if (!tls) {
                return new Wire[] {new PlainWire(client), new PlainWire(server)};
            }
            TlsWire dialling = TlsWire.client(client, JobTls.create("job", "secret", 1).engine(0, true), new byte[0]);
            TlsWire accepted = TlsWire.server(server, JobTls.create("job", "secret", 0).engine(1, false));
            ByteBuffer scratch = ByteBuffer.allocate(64);
            while (!dialling.isEstablished() || !accepted.isEstablished()) {
                dialling.flush();
                accepted.flush();
                dialling.read(scratch.clear());
                accepted.read(scratch.clear());
            }
            return new Wire[] {dialling, accepted};
        }
    }

    private static SocketChannel open(SocketChannel socket) throws IOException {
        socket.configureBlocking(false);
        socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return socket;
    }

    private static void close(Wire[] wires) throws IOException {
        wires[0].close();
        wires[1].close();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
